// The CLI side of the write API: one HTTP request to a running server's control listener
// (--control ADDRESS:PORT, --token or $CUTOVER_TOKEN), shared by set, delete, get, history,
// undo and journal. Blocking; not thread-safe per object.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cmd/output.h"

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
// --view NAME: address that view's own copy of the zone (docs/steering.md, "Writes to a view's zones").
void add_view_option(CLI::App& command, std::string& view);
// "/zones/ZONE/ACTION", with "?view=VIEW" when `view` is not empty and `query` (already
// encoded: "name=www") after it.
std::string zone_path(const std::string& zone, const std::string& action, const std::string& view,
                      const std::string& query = {});
void add_fence_options(CLI::App& command, FenceOptions& options);
// The fence options as JSON members of a write body.
void put_fence(const FenceOptions& fence, nlohmann::json& body);

struct ApiReply {
  int status = 0;
  nlohmann::json body;
};

// GET, POST, PUT, PATCH or DELETE `path`; exits 2 through `output` when the server cannot be
// reached or does not answer JSON.
ApiReply api_call(const Output& output, const ApiOptions& options, const std::string& method, const std::string& path,
                  const nlohmann::json& body = nullptr);

// The body of a read's reply; exits 2 through `output` unless the server answered 200.
const nlohmann::json& read_reply(const Output& output, const ApiReply& reply);

// A journal time (Unix ms) as 2026-11-29T23:40:01.250Z.
std::string utc_time(long long at_ms);

// Prints a write reply (the API's JSON, also with --json). A write the server refused (HTTP
// 4xx: the fence, the floor, a bad request) exits 1, a server error (5xx) 2; with --json the
// error document then carries the reply as "reply" and the HTTP status as "status".
void print_write_reply(const Output& output, const ApiReply& reply);

}  // namespace cutover::cmd
