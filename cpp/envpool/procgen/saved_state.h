// The bytes of a saved procgen env: procgen's own game state, wrapped with
// what envpool adds (the options it was saved under, the env's step count in
// its level) and a checksum. procgen's library ends the process on a state
// it cannot read, so only bytes that this format vouches for reach it.
#ifndef ENVPOOL_PROCGEN_SAVED_STATE_H_
#define ENVPOOL_PROCGEN_SAVED_STATE_H_

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace envpool::procgen {

struct SavedState {
  std::string identity;  // GameOptions::Identity() of the env saved
  std::int32_t steps_in_level = 0;
  bool mid_level = false;
  std::string game;  // procgen's get_state bytes

  [[nodiscard]] std::string Encode() const {
    std::string body;
    PutString(body, identity);
    PutInt(body, static_cast<std::uint64_t>(steps_in_level));
    PutInt(body, mid_level ? 1 : 0);
    PutString(body, game);
    std::string out(kMagic);
    PutInt(out, Checksum(body));
    return out + body;
  }

  // The state in `bytes`; std::invalid_argument unless they are an Encode()
  // of an env with options `identity`.
  static SavedState Decode(std::string_view bytes,
                           const std::string& identity) {
    if (bytes.size() < kMagic.size() + 8 ||
        bytes.substr(0, kMagic.size()) != kMagic) {
      throw std::invalid_argument(
          "set_state() got bytes that are not a procgen state saved by "
          "envpool's get_state()");
    }
    std::string_view rest = bytes.substr(kMagic.size());
    const std::uint64_t checksum = TakeInt(rest);
    if (Checksum(rest) != checksum) {
      throw std::invalid_argument(
          "set_state() got a damaged procgen state (its checksum does not "
          "match its bytes)");
    }
    SavedState state;
    state.identity = TakeString(rest);
    if (state.identity != identity) {
      throw std::invalid_argument(
          "set_state() got a state saved from an env with other options (" +
          state.identity + ") than this one (" + identity +
          "); restore it into an env of the same game and options");
    }
    state.steps_in_level = static_cast<std::int32_t>(TakeInt(rest));
    state.mid_level = TakeInt(rest) != 0;
    state.game = std::string(TakeString(rest));
    return state;
  }

 private:
  static constexpr std::string_view kMagic = "envpool-procgen-state-1\n";

  static void PutInt(std::string& out, std::uint64_t value) {
    char bytes[8];
    std::memcpy(bytes, &value, 8);
    out.append(bytes, 8);
  }

  static void PutString(std::string& out, std::string_view text) {
    PutInt(out, text.size());
    out.append(text);
  }

  // Reads past a checksum already checked, so a short field means bytes from
  // another version of this format.
  static std::uint64_t TakeInt(std::string_view& in) {
    if (in.size() < 8) {
      throw std::invalid_argument("set_state() got a truncated procgen state");
    }
    std::uint64_t value = 0;
    std::memcpy(&value, in.data(), 8);
    in.remove_prefix(8);
    return value;
  }

  static std::string_view TakeString(std::string_view& in) {
    const std::uint64_t size = TakeInt(in);
    if (size > in.size()) {
      throw std::invalid_argument("set_state() got a truncated procgen state");
    }
    std::string_view text = in.substr(0, size);
    in.remove_prefix(size);
    return text;
  }

  // FNV-1a, 64 bits: catches damage, not forgery.
  static std::uint64_t Checksum(std::string_view bytes) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : bytes) {
      hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    return hash;
  }
};

}  // namespace envpool::procgen

#endif  // ENVPOOL_PROCGEN_SAVED_STATE_H_
