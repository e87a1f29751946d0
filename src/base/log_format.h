// The form of Logger lines (base/log.h): `TIME LEVEL event key=value ...` (the default), or one
// JSON object per line, {"time": ..., "level": ..., "event": ..., KEY: VALUE ...}, every value
// a string (`cutover serve --json`). The form is the process's, for every Logger: it is set once
// at start, before threads log, and read atomically by each line. It lives here rather than in
// the Logger so the widely included log.h does not change. Thread-safe.
#pragma once

namespace cutover::base {

enum class LogFormat { kText, kJson };

void set_log_format(LogFormat format);
LogFormat log_format();

}  // namespace cutover::base
