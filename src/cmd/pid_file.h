// The pid file shared by `serve` (writes it) and `reload` (reads it to find the server).
// Plain functions; not synchronised with other writers of the same file.
#pragma once

#include <sys/types.h>

#include <string>

#include "base/result.h"

namespace cutover::cmd {

base::Status write_pid_file(const std::string& path, pid_t pid);
base::Result<pid_t> read_pid_file(const std::string& path);

}  // namespace cutover::cmd
