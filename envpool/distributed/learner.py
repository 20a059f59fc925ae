"""An example learner: PPO with PyTorch on the CPU, fed by the trajectory store.

Trajectories arrive from actors whose weights may lag the learner's by a version or
two, so the PPO ratio uses the behaviour log-probs they carry (``logp``), and
trajectories older than ``max_staleness`` versions are dropped (and counted).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np

from envpool.distributed.policy import Weights, export_weights

try:
    import torch
    from torch import nn
except ImportError:  # pragma: no cover - the [ray] extra installs torch
    torch = None


@dataclass
class PPOConfig:
    learning_rate: float = 1e-3
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    epochs: int = 4
    minibatches: int = 4
    vf_coef: float = 0.5
    ent_coef: float = 0.0
    max_grad_norm: float = 0.5
    max_staleness: int = 4
    seed: int = 1


def _layer(n_in: int, n_out: int, gain: float) -> Any:
    lin = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(lin.weight, gain)
    nn.init.zeros_(lin.bias)
    return lin


def _mlp(obs_dim: int, n_out: int, last_gain: float) -> Any:
    root2 = float(np.sqrt(2))
    return nn.Sequential(
        _layer(obs_dim, 64, root2),
        nn.Tanh(),
        _layer(64, 64, root2),
        nn.Tanh(),
        _layer(64, n_out, last_gain),
    )


class PPOLearner:
    def __init__(self, obs_dim: int, n_actions: int, config: PPOConfig | None = None) -> None:
        if torch is None:
            raise ImportError('the learner needs torch: pip install "envpool[ray]"')
        self.config = config or PPOConfig()
        torch.manual_seed(self.config.seed)
        torch.set_num_threads(1)  # a 64-unit MLP is fastest on one thread
        self.actor = _mlp(obs_dim, n_actions, 0.01)
        self.critic = _mlp(obs_dim, 1, 1.0)
        params = [*self.actor.parameters(), *self.critic.parameters()]
        self.optimizer = torch.optim.Adam(params, lr=self.config.learning_rate, eps=1e-5)
        self.version = 0
        self.dropped_stale = 0
        self.returns: deque[float] = deque(maxlen=100)
        self.episodes = 0
        self.env_steps = 0

    def weights(self) -> Weights:
        return export_weights(self.actor)

    def mean_return(self) -> float:
        return float(np.mean(self.returns)) if self.returns else 0.0

    def _lag(self, trajectory: dict) -> int:
        """How many versions behind the learner the oldest step of `trajectory` is."""
        return self.version - int(trajectory["policy_version"].min())

    def update(self, trajectories: list[dict]) -> dict[str, float]:
        """One PPO update on a batch of trajectories; returns its metrics."""
        cfg = self.config
        for traj in trajectories:
            self.returns.extend(traj.get("finished_returns", ()))
            self.episodes += len(traj.get("finished_returns", ()))
        fresh = [
            t
            for t in trajectories
            if self.version - int(t["policy_version"].min()) <= cfg.max_staleness
        ]
        self.dropped_stale += len(trajectories) - len(fresh)
        if not fresh:
            return {"trained_on": 0}
        batch = {
            k: np.stack([t[k] for t in fresh])
            for k in ("obs", "next_obs", "action", "reward", "terminated", "truncated", "logp")
        }
        self.env_steps += batch["reward"].size
        obs = torch.as_tensor(batch["obs"], dtype=torch.float32)
        next_obs = torch.as_tensor(batch["next_obs"], dtype=torch.float32)
        with torch.no_grad():
            value = self.critic(obs).squeeze(-1)
            next_value = self.critic(next_obs).squeeze(-1)
        reward = torch.as_tensor(batch["reward"], dtype=torch.float32)
        terminated = torch.as_tensor(batch["terminated"], dtype=torch.float32)
        done = torch.as_tensor(batch["terminated"] | batch["truncated"], dtype=torch.float32)
        # GAE over each trajectory; a truncated step bootstraps from its final obs.
        delta = reward + cfg.gamma * (1.0 - terminated) * next_value - value
        adv = torch.zeros_like(delta)
        last = torch.zeros(delta.shape[0])
        for t in reversed(range(delta.shape[1])):
            last = delta[:, t] + cfg.gamma * cfg.gae_lambda * (1.0 - done[:, t]) * last
            adv[:, t] = last
        returns = adv + value

        flat = {
            "obs": obs.reshape(-1, obs.shape[-1]),
            "action": torch.as_tensor(batch["action"]).reshape(-1).long(),
            "logp": torch.as_tensor(batch["logp"], dtype=torch.float32).reshape(-1),
            "adv": adv.reshape(-1),
            "ret": returns.reshape(-1),
        }
        n = flat["adv"].shape[0]
        size = max(1, n // cfg.minibatches)
        params = [*self.actor.parameters(), *self.critic.parameters()]
        for _ in range(cfg.epochs):
            for idx in torch.randperm(n).split(size):
                logits = self.actor(flat["obs"][idx])
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(flat["action"][idx])
                ratio = (logp - flat["logp"][idx]).exp()
                a = flat["adv"][idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = -torch.min(ratio * a, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * a).mean()
                v = self.critic(flat["obs"][idx]).squeeze(-1)
                vf = 0.5 * ((v - flat["ret"][idx]) ** 2).mean()
                loss = pg + cfg.vf_coef * vf - cfg.ent_coef * dist.entropy().mean()
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
                self.optimizer.step()
        self.version += 1
        return {"trained_on": float(len(fresh)), "policy_loss": pg.item(), "value_loss": vf.item()}
