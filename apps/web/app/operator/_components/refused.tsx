import { isServiceRefusal } from "../_lib/refusal";

/** A read the service refused (a role that may not see it): the service's own reason. */
export function Refused({ title, message }: { title: string; message: string }) {
  return (
    <main id="main">
      <h1>{title}</h1>
      <div role="alert" className="outcome outcome-refused">
        <p>{message}</p>
      </div>
    </main>
  );
}

/** Runs a read; a service refusal (it carries a code) comes back as its message instead of an error page. */
export async function readOrRefusal<T>(read: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    if (isServiceRefusal(error)) return { ok: false, message: error.message };
    throw error;
  }
}
