// Entry point of the cutover binary: parses the command line and runs one subcommand.
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "pool/config/pool_config.h"

int main(int argc, char** argv) {
  // Feature sections of the config file (config/section.h), before any config is read.
  cutover::pool::register_config_section();
  CLI::App app{"cutover: authoritative DNS with health-checked failover, a resolver-clock lab and cutover planning"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "cutover 0.1.0");
  cutover::cmd::add_serve_command(app);
  cutover::cmd::add_status_command(app);
  cutover::cmd::add_explain_command(app);
  cutover::cmd::add_reload_command(app);
  cutover::cmd::add_check_zone_command(app);
  cutover::cmd::add_sweep_command(app);
  cutover::cmd::add_trace_command(app);
  cutover::cmd::add_calc_command(app);
  cutover::cmd::add_plan_command(app);
  cutover::cmd::add_lint_command(app);
  cutover::cmd::add_lab_command(app);
  cutover::cmd::add_set_command(app);
  cutover::cmd::add_delete_command(app);
  cutover::cmd::add_get_command(app);
  cutover::cmd::add_history_command(app);
  cutover::cmd::add_pool_command(app);
  cutover::cmd::add_undo_command(app);
  cutover::cmd::add_journal_command(app);
  cutover::cmd::add_monitor_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cutover: %s\n", e.what());
    return 2;
  }
  return 0;
}
