// Entry point of the cutover binary: parses the command line and runs one subcommand, with the
// exit codes and --json rules of docs/cli.md (cmd/output.h).
#include <openssl/crypto.h>
#include <openssl/ssl.h>

#include <CLI/CLI.hpp>

#include "cmd/build_info.h"
#include "cmd/commands.h"
#include "cmd/huge_page_heap.h"
#include "cmd/output.h"
#include "cluster/cluster_config.h"
#include "pool/config/pool_config.h"

namespace {

// OpenSSL without its error-string tables. libcpp-httplib's constructor (Debian builds it with
// CPPHTTPLIB_OPENSSL_SUPPORT) asks OpenSSL to load them into a hash table in every process that
// links it, `cutover serve` included: about 0.6 MB of touched library pages and heap per server
// (docs/performance.md, "Memory"). Nothing in cutover prints OpenSSL's error text; its errors
// name the operation that failed. An entry in .preinit_array runs before any shared library's
// constructor, and OpenSSL's initialisation steps run once, so the later request to load the
// strings finds them settled. The configuration file (system crypto policy) still loads.
void skip_openssl_error_strings() {
  OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS, nullptr);
  OPENSSL_init_ssl(OPENSSL_INIT_NO_LOAD_SSL_STRINGS, nullptr);
}
[[gnu::used, gnu::section(".preinit_array")]] void (*const skip_strings_early)() = skip_openssl_error_strings;

}  // namespace

int main(int argc, char** argv) {
  // `serve` with large zones may start itself again with a huge-page heap (huge_page_heap.h).
  cutover::cmd::note_arguments(argc, argv);
  // Feature sections of the config file (config/section.h), before any config is read.
  cutover::pool::register_config_section();
  cutover::cluster::register_cluster_section();
  CLI::App app{"cutover: authoritative DNS with health-checked failover, a resolver-clock lab and cutover planning"};
  app.require_subcommand(1);
  app.set_version_flag("--version", cutover::cmd::version_text(), "Print the version and build (with --json: as JSON)");
  bool version_json = false;  // read by run_command_line from the arguments; declared for --help and the parser
  app.add_flag("--json", version_json, "With --version: print it as JSON");
  cutover::cmd::add_serve_command(app);
  cutover::cmd::add_status_command(app);
  cutover::cmd::add_explain_command(app);
  cutover::cmd::add_reload_command(app);
  cutover::cmd::add_check_zone_command(app);
  cutover::cmd::add_dnssec_command(app);
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
  cutover::cmd::add_fetch_command(app);
  cutover::cmd::add_checker_command(app);
  return cutover::cmd::run_command_line(app, argc, argv);
}
