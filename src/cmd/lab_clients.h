// `--lab-results FILE` for calc, plan and explain: the client terms a lab run measured
// (lab/report/client_terms.h), handed to the tools as plain values (docs/tools.md, "Client
// terms from the lab").
#pragma once

#include <string>
#include <vector>

#include "cmd/output.h"
#include "tools/calc/client_profiles.h"

namespace cutover::cmd {

// The `--origin-behaviour` words and the E11 case each reads R from.
std::string reuse_behaviour_of(const std::string& word);
inline constexpr const char* kOriginBehaviourHelp =
    "Origin behaviour R is read from (E11): keep-open (default, the worst), idle-close, drain-close";

// The measured clients of results.json at `path`; empty for an empty path. Fails the command
// (exit 2) when the file cannot be read or holds no measured client case.
std::vector<tools::MeasuredClient> load_lab_clients(const std::string& path, const Output& output,
                                                    const std::string& origin_behaviour = "keep-open");

// The names --client takes, for an error message: the lab's client ids, then the profiles.
std::string known_client_names(const std::vector<tools::MeasuredClient>& measured);

}  // namespace cutover::cmd
