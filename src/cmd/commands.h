// Registration of the cutover subcommands. Each add_*_command() adds one subcommand to the
// app; its callback exits non-zero through cmd/output.h (Output::fail, Output::finish), which
// throw CLI::RuntimeError(code) with a code of docs/cli.md.
#pragma once

#include <CLI/CLI.hpp>

namespace cutover::cmd {

void add_serve_command(CLI::App& app);
void add_status_command(CLI::App& app);
void add_explain_command(CLI::App& app);
void add_reload_command(CLI::App& app);
void add_check_zone_command(CLI::App& app);
void add_dnssec_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_trace_command(CLI::App& app);
void add_calc_command(CLI::App& app);
void add_plan_command(CLI::App& app);
void add_lint_command(CLI::App& app);
void add_lab_command(CLI::App& app);
void add_set_command(CLI::App& app);
void add_delete_command(CLI::App& app);
void add_get_command(CLI::App& app);
void add_history_command(CLI::App& app);
void add_pool_command(CLI::App& app);
void add_undo_command(CLI::App& app);
void add_journal_command(CLI::App& app);
void add_monitor_command(CLI::App& app);
void add_fetch_command(CLI::App& app);
void add_checker_command(CLI::App& app);

}  // namespace cutover::cmd
