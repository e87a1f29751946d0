// Preparing the client runtimes of a run, once each.
#include "lab/clients/suite.h"

#include <sys/stat.h>

#include "lab/process.h"

namespace cutover::lab {

ClientSuite::ClientSuite(std::vector<std::string> ids, const std::string& resolver_spec, const std::string& out_dir,
                         const std::string& cutover_binary)
    : ids_(std::move(ids)), out_dir_(out_dir) {
  ::mkdir(out_dir_.c_str(), 0755);
  ::mkdir((out_dir_ + "/work").c_str(), 0755);
  ::mkdir(work_dir().c_str(), 0755);
  ::mkdir(logs_dir().c_str(), 0755);
  paths_.programs_dir = work_dir() + "/programs";
  paths_.build_dir = work_dir() + "/build";
  paths_.cutover_binary = cutover_binary;
  ::mkdir(paths_.build_dir.c_str(), 0755);
  auto written = write_client_programs(paths_.programs_dir);
  if (!written) programs_error_ = written.error().message;
  resolver_ = make_resolver(resolver_spec);
  if (!resolver_) {
    resolver_unavailable_ = "unknown resolver " + resolver_spec;
  } else if (resolver_->external()) {
    resolver_unavailable_ = "not supported: an external resolver cannot run inside a client case's namespace";
  } else if (!program_exists(resolver_->program())) {
    resolver_unavailable_ = resolver_->program() + " is not installed";
  } else {
    resolver_version_ = resolver_->version();
  }
}

const ClientSuite::Client& ClientSuite::client(const std::string& id) {
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard lock(mutex_);
    auto& entry = slots_[id];
    if (!entry) entry = std::make_shared<Slot>();
    slot = entry;
  }
  std::call_once(slot->once, [&] {
    Client& client = slot->client;
    client.adapter = make_client(id);
    if (!client.adapter) {
      client.unavailable = "unknown client " + id;
      return;
    }
    if (!programs_error_.empty()) {
      client.unavailable = programs_error_;
      return;
    }
    client.unavailable = client.adapter->unsupported(paths_);
    if (!client.unavailable.empty()) return;
    auto prepared = client.adapter->prepare(paths_);
    if (!prepared) {
      client.unavailable = "could not build: " + prepared.error().message.substr(0, prepared.error().message.find('\n'));
      client.log_tail = prepared.error().message;
      return;
    }
    client.version = client.adapter->version(paths_);
    if (client.version.empty()) client.unavailable = "could not read the version of " + id;
  });
  return slot->client;
}

}  // namespace cutover::lab
