import { Outlet } from "react-router";

// Placeholder until the accounts work adds the admin shell and guard.
export default function AdminLayout() {
  return <Outlet />;
}
