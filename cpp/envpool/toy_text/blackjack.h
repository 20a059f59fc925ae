// Blackjack-v1: hit or stick against a dealer, cards drawn from an infinite
// deck. A port of gymnasium 1.4's toy_text/blackjack.py.
//
// The observation is gymnasium's tuple (Discrete(32), Discrete(11),
// Discrete(2)): the player's sum, the dealer's face-up card (1 for an ace)
// and whether the player holds a usable ace. flat_observation=True gives the
// same three values as one int64 array (MultiDiscrete([32, 11, 2])), for
// libraries that take no Tuple spaces.
#ifndef ENVPOOL_TOY_TEXT_BLACKJACK_H_
#define ENVPOOL_TOY_TEXT_BLACKJACK_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/render_scene.h"
#include "envpool/core/rng.h"
#include "envpool/numpy/random.h"

namespace envpool::toy_text {

class Blackjack {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() {
    return {{"natural", false}, {"sab", false}, {"flat_observation", false}};
  }

  static EnvSpec Spec(const Config& config) {
    ArraySpec obs =
        config.Get<bool>("flat_observation")
            ? MakeArray<std::int64_t>("obs", {3}, {0.0, 0.0, 0.0},
                                      {31.0, 10.0, 1.0})
            : MakeTuple("obs", {MakeDiscrete<std::int64_t>("player_sum", 32),
                                MakeDiscrete<std::int64_t>("dealer_card", 11),
                                MakeDiscrete<std::int64_t>("usable_ace", 2)});
    return {std::move(obs), MakeDiscrete<std::int64_t>("action", 2), {}};
  }

  explicit Blackjack(const Config& config)
      : natural_(config.Get<bool>("natural")),
        sab_(config.Get<bool>("sab")),
        flat_(config.Get<bool>("flat_observation")) {}

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    dealer_ = Hand{};
    player_ = Hand{};
    dealer_.Add(DrawCard());
    dealer_.Add(DrawCard());
    player_.Add(DrawCard());
    player_.Add(DrawCard());
    // gymnasium also picks the face-up card's suit, and which face card a 10
    // is, for its picture; the draws must happen for the stream to match.
    suit_ = np_random_.Integers(0, 4);
    face_ = dealer_.first_card == 10 ? np_random_.Integers(0, 3) : -1;
    Write(out);
  }

  // What gymnasium's rgb_array frame shows: the player's cards (their total
  // counting aces as 1, and whether one is an ace), the dealer's face-up card,
  // its suit (C, D, H, S) and which face card a 10 is (J, Q, K; -1 for none).
  // Drawn by envpool/families/toy_text/frames.py.
  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return SceneShape(5);
  }
  void Render(std::span<std::uint8_t> scene) const {
    WriteScene(scene, {static_cast<double>(player_.raw_sum),
                       player_.has_ace ? 1.0 : 0.0,
                       static_cast<double>(dealer_.first_card),
                       static_cast<double>(suit_), static_cast<double>(face_)});
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    if (action != 0) {  // hit
      player_.Add(DrawCard());
      out.terminated = player_.IsBust();
      out.reward = out.terminated ? -1.0 : 0.0;
    } else {  // stick: the dealer draws to 17 or more
      out.terminated = true;
      while (dealer_.Sum() < 17) {
        dealer_.Add(DrawCard());
      }
      const int player_score = player_.Score();
      const int dealer_score = dealer_.Score();
      double reward = player_score > dealer_score   ? 1.0
                      : player_score < dealer_score ? -1.0
                                                    : 0.0;
      if (sab_ && player_.IsNatural() && !dealer_.IsNatural()) {
        reward = 1.0;
      } else if (!sab_ && natural_ && player_.IsNatural() && reward == 1.0) {
        reward = 1.5;
      }
      out.reward = reward;
    }
    Write(out);
  }

 private:
  // Only what the rules look at: the total counting aces as 1, whether there
  // is an ace, the number of cards and the first card.
  struct Hand {
    int raw_sum = 0;
    int num_cards = 0;
    int first_card = 0;
    bool has_ace = false;

    void Add(int card) {
      if (num_cards == 0) {
        first_card = card;
      }
      raw_sum += card;
      ++num_cards;
      has_ace |= card == 1;
    }
    bool HasUsableAce() const { return has_ace && raw_sum + 10 <= 21; }
    int Sum() const { return HasUsableAce() ? raw_sum + 10 : raw_sum; }
    bool IsBust() const { return Sum() > 21; }
    int Score() const { return IsBust() ? 0 : Sum(); }
    // An ace and a ten-valued card.
    bool IsNatural() const {
      return num_cards == 2 && has_ace && raw_sum == 11;
    }
  };

  // np_random.choice over the 13 ranks, the face cards counting 10.
  int DrawCard() {
    static constexpr std::array<int, 13> kDeck = {1, 2, 3,  4,  5,  6, 7,
                                                  8, 9, 10, 10, 10, 10};
    return kDeck[static_cast<std::size_t>(np_random_.Integers(0, 13))];
  }

  void Write(Output& out) const {
    const std::array<std::int64_t, 3> values = {
        player_.Sum(), dealer_.first_card, player_.HasUsableAce() ? 1 : 0};
    if (flat_) {
      std::copy(values.begin(), values.end(), out.Obs<std::int64_t>().begin());
      return;
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
      out.Obs<std::int64_t>(i)[0] = values[i];
    }
  }

  bool natural_;
  bool sab_;
  bool flat_;
  NumpyRandom np_random_;
  Hand player_;
  Hand dealer_;
  std::int64_t suit_ = 0;
  std::int64_t face_ = -1;
};

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_BLACKJACK_H_
