// The experiment framework: an experiment is a list of cases (CaseSpec), each with a unique
// name, the resolver configuration it needs and a run function that drives the lab authority,
// polls the resolver and records raw observations and expectations into a CaseResult.
// An experiment declares the fixtures it needs besides the lab authority; the runner starts
// them. Experiments are registered in one explicit list (experiments(), registry.cpp). Case run
// functions are called concurrently, each on its own thread, and share only thread-safe objects.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/result.h"
#include "lab/authority/authority_process.h"
#include "lab/case_result.h"
#include "lab/fixture.h"
#include "lab/resolvers/instance.h"
#include "lab/resolvers/resolver.h"

namespace cutover::lab {

class ClientSuite;

// What the cases of one resolver share.
struct LabEnv {
  const ResolverAdapter* adapter = nullptr;
  std::string version;
  std::string tag;  // DNS-safe resolver label used in case names, e.g. "unbound"
  AuthorityProcess* authority = nullptr;
  std::string zone;  // the lab zone resolvers stub to, e.g. "cutover-lab."
  InstancePool* pool = nullptr;
  std::vector<Fixture*> fixtures;  // the fixtures that started, shared by every resolver
  // The client runtimes of `--clients` (E6, E7, E11), given to the first resolver of
  // --resolvers only, whose adapter the client cases run inside their namespaces; else null.
  ClientSuite* clients = nullptr;

  // The started fixture of type T, or nullptr when it is not needed or could not start.
  template <typename T>
  T* fixture() const {
    for (Fixture* candidate : fixtures) {
      if (auto* typed = dynamic_cast<T*>(candidate)) return typed;
    }
    return nullptr;
  }
};

// A case cannot be measured (the lab failed, not the resolver): thrown by run functions.
class LabError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Unwraps a lab operation's result or throws LabError.
template <typename T>
T need(base::Result<T> result) {
  if (!result) throw LabError(result.error().message);
  return std::move(*result);
}

struct CaseContext {
  const LabEnv& env;
  ResolverInstance& resolver;
  // Every name name() gave out, for the resolver's introspection after the case (may be null).
  std::vector<std::string>* names = nullptr;
  // A DNS name unique to this case and resolver: "<label>.<tag>.<zone>".
  std::string name(const std::string& label) const {
    std::string out = label + "." + env.tag + "." + env.zone;
    if (names != nullptr) names->push_back(out);
    return out;
  }
};

struct CaseSpec {
  std::string experiment;
  std::string name;
  ResolverConfig config;  // upstream left as kStub with empty fields is filled in by the runner
  std::string isolation;  // non-empty: the case gets a resolver instance of its own
  std::function<void(CaseContext&, CaseResult&)> run;
  // Set instead of `run` by a case that builds its own world (a client case's namespace with
  // its own authority and resolver): the runner starts no resolver instance for it, and the
  // function sets the verdict itself (judge, or why it could not run).
  std::function<void(const LabEnv&, CaseResult&)> run_isolated = {};
};

struct RunResults;

// How the report (lab/report/) shows an experiment beyond the table every experiment gets.
struct ExperimentReport {
  // The Details cell of one of its cases, from the common text (`common`: the first fill's
  // TTL when there was one); empty: the common text alone.
  std::function<std::string(const CaseResult& result, const std::string& common)> details;
  // An HTML figure (inline SVG) under its table in report.html, "" for none; empty: none.
  std::function<std::string(const RunResults& results)> figure;
  // Recomputes the details that follow from the observations alone (E3's client-view pattern
  // and counts), so `cutover lab check` can compare them with the stored ones; empty: none.
  std::function<void(CaseResult& result)> derive_details;
  // The experiment's whole table in report.md (header and rows), for a layout other than the
  // common one (the client experiments'); empty: the common table.
  std::function<std::string(const RunResults& results)> table = {};
};

struct ExperimentInfo {
  std::string id;
  std::string title;
  std::vector<const FixtureKind*> fixtures;  // started once before any case of any experiment runs
  std::function<std::vector<CaseSpec>(const LabEnv&)> cases;
  ExperimentReport report;
};

// E1..E10, in report order.
const std::vector<ExperimentInfo>& experiments();

}  // namespace cutover::lab
