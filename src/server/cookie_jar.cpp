// Cookie secrets: configured or generated, rotated by one background thread.
#include "server/cookie_jar.h"

#include <random>

namespace cutover::server {
namespace {

dns::CookieSecret random_secret() {
  std::random_device device;  // getrandom(2) on Linux
  dns::CookieSecret secret;
  for (std::size_t i = 0; i < secret.size(); i += 4) {
    unsigned int value = device();
    for (std::size_t j = 0; j < 4; ++j) secret[i + j] = static_cast<std::uint8_t>(value >> (8 * j));
  }
  return secret;
}

}  // namespace

CookieJar::CookieJar(const config::CookieConfig& config) : config_(config) {
  generated_.push_back(random_secret());
  {
    std::lock_guard lock(mutex_);
    publish_locked();
  }
  rotator_ = std::thread([this] { run(); });
}

CookieJar::~CookieJar() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  rotator_.join();
}

const dns::CookieSecrets* CookieJar::current() const {
  const dns::CookieSecrets* secrets = published_.read();
  return secrets != nullptr && !secrets->secrets.empty() ? secrets : nullptr;
}

void CookieJar::reload(const config::CookieConfig& config) {
  {
    std::lock_guard lock(mutex_);
    config_ = config;
    publish_locked();
  }
  changed_.notify_all();  // the rotation interval may have changed
}

void CookieJar::rotate() {
  std::lock_guard lock(mutex_);
  if (!config_.secrets.empty()) return;
  generated_.insert(generated_.begin(), random_secret());
  generated_.resize(2);
  publish_locked();
}

void CookieJar::publish_locked() {
  auto secrets = std::make_shared<dns::CookieSecrets>();
  if (config_.enabled) secrets->secrets = config_.secrets.empty() ? generated_ : config_.secrets;
  secrets->require = config_.require;
  secrets->generation = ++generation_;
  published_.publish(std::move(secrets));
}

void CookieJar::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    auto interval = config_.rotate;
    if (changed_.wait_for(lock, interval, [&] { return stopping_ || interval != config_.rotate; })) continue;
    lock.unlock();
    rotate();
    lock.lock();
  }
}

}  // namespace cutover::server
