// The stop signals of the long-running subcommands (monitor, checker): SIGINT and SIGTERM,
// blocked in the calling thread (call it before any thread starts, so threads inherit the
// mask) and returned as the set to sigwait()/sigtimedwait() on.
#pragma once

#include <signal.h>

namespace cutover::cmd {

inline sigset_t block_stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

}  // namespace cutover::cmd
