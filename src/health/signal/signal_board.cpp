// SignalBoard: named states with an expiry.
#include "health/signal/signal_board.h"

#include <algorithm>
#include <cctype>

namespace cutover::health {

const char* signal_state_to_text(SignalState state) { return state == SignalState::kUp ? "up" : "down"; }

std::optional<SignalState> parse_signal_state(std::string_view text) {
  std::string lower;
  for (char c : text) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "up") return SignalState::kUp;
  if (lower == "down") return SignalState::kDown;
  return std::nullopt;
}

bool valid_signal_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
  });
}

void SignalBoard::set(const std::string& name, SignalState state, std::chrono::milliseconds ttl, base::SteadyTime now,
                      std::chrono::system_clock::time_point wall, std::string who) {
  std::lock_guard lock(mutex_);
  signals_[name] = SignalEntry{name, state, now + ttl, wall, std::move(who)};
}

bool SignalBoard::erase(const std::string& name) {
  std::lock_guard lock(mutex_);
  return signals_.erase(name) != 0;
}

std::optional<SignalState> SignalBoard::get(const std::string& name, base::SteadyTime now) const {
  std::lock_guard lock(mutex_);
  auto it = signals_.find(name);
  if (it == signals_.end() || now >= it->second.expires) return std::nullopt;
  return it->second.state;
}

std::vector<SignalEntry> SignalBoard::list(base::SteadyTime now) {
  std::lock_guard lock(mutex_);
  std::vector<SignalEntry> out;
  for (auto it = signals_.begin(); it != signals_.end();) {
    if (now >= it->second.expires) {
      it = signals_.erase(it);
      continue;
    }
    out.push_back(it->second);
    ++it;
  }
  return out;
}

}  // namespace cutover::health
