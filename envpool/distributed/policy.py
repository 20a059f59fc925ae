"""The policy an actor runs locally: a small MLP in numpy, no torch needed on actors.

Weights travel as a dict of numpy arrays (``{"w0": ..., "b0": ..., ...}``), the
layout the learner's torch model exports with ``export_weights``.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

Weights = dict[str, np.ndarray]


def init_weights(obs_dim: int, n_actions: int, hidden: int = 64, seed: int = 0) -> Weights:
    """Random policy weights (tanh MLP, two hidden layers), as the learner starts."""
    rng = np.random.default_rng(seed)
    sizes = [obs_dim, hidden, hidden, n_actions]
    weights: Weights = {}
    for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        scale = 0.01 if i == len(sizes) - 2 else np.sqrt(2.0 / n_in)
        weights[f"w{i}"] = (rng.standard_normal((n_in, n_out)) * scale).astype(np.float32)
        weights[f"b{i}"] = np.zeros(n_out, dtype=np.float32)
    return weights


class NumpyPolicy:
    """Categorical policy over ``logits = MLP(obs)``; sampling with its own generator."""

    def __init__(self, weights: Weights, seed: int = 0) -> None:
        self.layers = len(weights) // 2
        self.weights = weights
        self.rng = np.random.default_rng(seed)

    def set_weights(self, weights: Weights) -> None:
        self.weights = weights

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = np.asarray(obs, dtype=np.float32)
        for i in range(self.layers):
            x = x @ self.weights[f"w{i}"] + self.weights[f"b{i}"]
            if i < self.layers - 1:
                x = np.tanh(x)
        return x

    def act(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Sampled actions and their log-probabilities under this policy."""
        logits = self.logits(obs)
        logits = logits - logits.max(axis=-1, keepdims=True)
        log_probs = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
        # Gumbel-max: argmax(logits + Gumbel noise) samples the categorical.
        gumbel = -np.log(-np.log(self.rng.uniform(1e-12, 1.0, size=logits.shape)))
        actions = np.argmax(log_probs + gumbel, axis=-1)
        return actions, np.take_along_axis(log_probs, actions[:, None], axis=-1)[:, 0]


def export_weights(actor_net: Any) -> Weights:
    """The numpy weights of a torch ``nn.Sequential`` of Linear/Tanh layers."""
    linear = [m for m in actor_net if hasattr(m, "weight")]
    weights: Weights = {}
    for i, layer in enumerate(linear):
        weights[f"w{i}"] = layer.weight.detach().numpy().T.copy()
        weights[f"b{i}"] = layer.bias.detach().numpy().copy()
    return weights
