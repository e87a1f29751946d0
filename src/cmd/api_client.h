// The CLI side of the write API: one HTTP request to a running server's control listener
// (--control ADDRESS:PORT, --token or $CUTOVER_TOKEN), shared by set, delete, get, history,
// undo and journal. Blocking; not thread-safe per object.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace cutover::cmd {

struct ApiOptions {
  std::string control = "127.0.0.1:8053";
  std::string token;  // empty: $CUTOVER_TOKEN, if set
};

struct FenceOptions {
  long long expected_version = -1;  // -1: none
  long long plan_version = -1;
  bool allow_empty = false;
  bool dry_run = false;
  std::string who;
};

void add_api_options(CLI::App& command, ApiOptions& options);
void add_fence_options(CLI::App& command, FenceOptions& options);
// The fence options as JSON members of a write body.
void put_fence(const FenceOptions& fence, nlohmann::json& body);

struct ApiReply {
  int status = 0;
  nlohmann::json body;
};

// GET, POST, PUT, PATCH or DELETE `path`; throws CLI::RuntimeError(2) after printing why when the server cannot
// be reached or does not answer JSON. `command` names the subcommand in messages.
ApiReply api_call(const std::string& command, const ApiOptions& options, const std::string& method,
                  const std::string& path, const nlohmann::json& body = nullptr);

// A journal time (Unix ms) as 2026-11-29T23:40:01.250Z.
std::string utc_time(long long at_ms);

// Prints a write reply; throws CLI::RuntimeError(1) when the write was refused.
void print_write_reply(const std::string& command, const ApiReply& reply);

}  // namespace cutover::cmd
