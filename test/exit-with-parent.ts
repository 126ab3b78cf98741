/**
 * Preloaded into every server a test suite or the bench starts (`node --import` with
 * {@link EXIT_WITH_PARENT}): the server stops when the process that started it is gone, however
 * that process ended. tap ends a file that outlives its timeout with SIGALRM and then SIGKILL, which
 * runs no exit handler: the file's servers were left running (two were found 90 minutes later),
 * holding ports, memory and CPU while the next suites ran. Orphaned, a process is handed to another
 * parent, so a changed `ppid` means the starter is gone.
 */
const starter = process.ppid;

setInterval(() => {
  // SIGTERM, so the server shuts down the way it does in production (a cluster primary its workers too).
  if (process.ppid !== starter) process.kill(process.pid, 'SIGTERM');
}, 250).unref();
