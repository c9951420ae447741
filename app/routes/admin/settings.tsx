// Placeholder until the admin work fills this route in.
export default function Placeholder() {
  return null;
}
