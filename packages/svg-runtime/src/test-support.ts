/**
 * The CPU time this thread spends in `work`, in milliseconds. Admission's one-second bound is a
 * bound on the work a request costs the event loop; wall time would also count the wait for a core
 * while other processes share the machine, which is not admission's doing.
 */
export function threadMillisecondsOf<T>(work: () => T): { result: T; milliseconds: number } {
  const before = process.threadCpuUsage();
  const result = work();
  const used = process.threadCpuUsage(before);
  return { result, milliseconds: (used.user + used.system) / 1000 };
}
