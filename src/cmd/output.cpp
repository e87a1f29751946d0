// Printing results and errors the one way docs/cli.md describes, and the mapping of the
// argument parser's own errors onto the exit codes.
#include "cmd/output.h"

#include <cstdio>
#include <exception>
#include <string_view>
#include <vector>

#include "cmd/build_info.h"

namespace cutover::cmd {
namespace {

// --json anywhere before a "--" (the parser's errors are printed before any callback ran, so
// the flag's value is not known yet).
bool json_requested(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") return false;
    if (arg == "--json") return true;
  }
  return false;
}

// The subcommand path the arguments name ("pool drain"), "cutover" when none: the leading
// arguments that are subcommand names, each of the one before.
std::string command_path(const CLI::App& app, int argc, char** argv) {
  std::string path;
  const CLI::App* current = &app;
  for (int i = 1; i < argc; ++i) {
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : current->get_subcommands([](const CLI::App*) { return true; })) {
      if (sub->check_name(argv[i])) next = sub;
    }
    if (next == nullptr) break;
    path += (path.empty() ? "" : " ") + next->get_name();
    current = next;
  }
  return path.empty() ? "cutover" : path;
}

}  // namespace

nlohmann::json error_document(const std::string& command, ExitCode code, const std::string& message) {
  return {{"command", command}, {"exit_code", static_cast<int>(code)}, {"error", message}};
}

void Output::add_json_flag(CLI::App& app, const std::string& help) {
  app.add_flag("--json", json_, help.empty() ? "Print the result as one JSON document on stdout" : help);
}

void Output::document(const nlohmann::json& document) const {
  std::string text = document.dump(2);
  text.push_back('\n');
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void Output::fail(ExitCode code, const std::string& message, const nlohmann::json& extra) const {
  if (json_) {
    nlohmann::json out = error_document(command_, code, message);
    for (const auto& [key, value] : extra.items()) out[key] = value;
    document(out);
  } else {
    std::fprintf(stderr, "cutover %s: %s\n", command_.c_str(), message.c_str());
  }
  throw CLI::RuntimeError(static_cast<int>(code));
}

void Output::finish(ExitCode code) {
  if (code != ExitCode::kOk) throw CLI::RuntimeError(static_cast<int>(code));
}

int run_command_line(CLI::App& app, int argc, char** argv) {
  constexpr int kCouldNotRun = static_cast<int>(ExitCode::kCouldNotRun);
  bool json = json_requested(argc, argv);
  try {
    app.parse(argc, argv);
    return 0;
  } catch (const CLI::CallForVersion&) {
    if (json) {
      Output("version").document(version_json());
    } else {
      std::printf("%s\n", version_text().c_str());
    }
    return 0;
  } catch (const CLI::ParseError& e) {
    // A subcommand's own exit: it has printed what it had to say.
    if (e.get_name() == "RuntimeError") return e.get_exit_code();
    // --help.
    if (e.get_exit_code() == 0) return app.exit(e);
    if (json) {
      std::string command = command_path(app, argc, argv);
      Output(command).document(error_document(command, ExitCode::kCouldNotRun, e.what()));
    } else {
      app.exit(e);
    }
    return kCouldNotRun;
  } catch (const std::exception& e) {
    std::string command = command_path(app, argc, argv);
    if (json) {
      Output(command).document(error_document(command, ExitCode::kCouldNotRun, e.what()));
    } else {
      std::fprintf(stderr, "cutover %s: %s\n", command.c_str(), e.what());
    }
    return kCouldNotRun;
  }
}

}  // namespace cutover::cmd
