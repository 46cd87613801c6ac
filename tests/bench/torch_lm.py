"""torch_lm.py: the language model of engine/core/lm written with torch.nn, trained on the same
batches' shapes and ids, as the PyTorch column of `./neuralpath bench`'s language-model part.

  python3 torch_lm.py --shape '{"vocab_size": 320, "context": 32, ...}' [--steps N] [--threads N]

Same architecture as model.h: token embedding; per block pre-LN causal multi-head attention with
rotary positions on Q and K, an MLP with tanh-GELU (none when mlp_hidden is 0), residuals; final
LayerNorm; logits tied to the embedding; cross-entropy; AdamW (betas 0.9, 0.95, decay on matrices),
gradient clipping at 1. Token i of the stream is (7919·i + 13) mod V (0 for the document token
256), as lm_bench.cpp builds it; batches are read from random starts. Prints one JSON line.
"""
import argparse
import json
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def rope_tables(T, dh):
    theta = 10000.0 ** (-2.0 * torch.arange(dh // 2, dtype=torch.float64) / dh)
    angles = torch.arange(T, dtype=torch.float64)[:, None] * theta[None, :]
    return torch.cos(angles).float(), torch.sin(angles).float()


def rope(x, cos, sin):  # x [B, H, T, dh]: pairs (2i, 2i+1) rotated by t·θ_i
    a, b = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = a * cos - b * sin
    out[..., 1::2] = a * sin + b * cos
    return out


class Block(nn.Module):
    def __init__(self, d, heads, hidden):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.mlp = hidden > 0
        if self.mlp:
            self.ln2 = nn.LayerNorm(d)
            self.fc = nn.Linear(d, hidden)
            self.fc_proj = nn.Linear(hidden, d)

    def forward(self, x, cos, sin, mask):
        B, T, d = x.shape
        dh = d // self.heads
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (t.view(B, T, self.heads, dh).transpose(1, 2) for t in (q, k, v))
        q, k = rope(q, cos, sin), rope(k, cos, sin)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(dh)
        att = att.masked_fill(mask, float('-inf')).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, d)
        x = x + self.proj(y)
        if self.mlp:
            x = x + self.fc_proj(F.gelu(self.fc(self.ln2(x)), approximate='tanh'))
        return x


class LM(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.wte = nn.Embedding(s['vocab_size'], s['d_model'])
        self.blocks = nn.ModuleList(Block(s['d_model'], s['heads'], s['mlp_hidden']) for _ in range(s['layers']))
        self.lnf = nn.LayerNorm(s['d_model'])
        cos, sin = rope_tables(s['context'], s['d_model'] // s['heads'])
        self.register_buffer('cos', cos)
        self.register_buffer('sin', sin)
        T = s['context']
        self.register_buffer('mask', torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1))

    def forward(self, ids, targets):
        x = self.wte(ids)
        for block in self.blocks:
            x = block(x, self.cos, self.sin, self.mask)
        logits = self.lnf(x) @ self.wte.weight.t()
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.reshape(-1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--shape', required=True)
    p.add_argument('--steps', type=int, default=20)
    p.add_argument('--threads', type=int, default=1)
    a = p.parse_args()
    s = json.loads(a.shape)
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    V, T, B = s['vocab_size'], s['context'], s['batch']
    n = 200000
    stream = (torch.arange(n, dtype=torch.int64) * 7919 + 13) % V
    stream[stream == 256] = 0
    model = LM(s)
    decay = [p for name, p in model.named_parameters() if p.dim() == 2]
    other = [p for name, p in model.named_parameters() if p.dim() != 2]
    opt = torch.optim.AdamW([{'params': decay, 'weight_decay': 0.01}, {'params': other, 'weight_decay': 0.0}],
                            lr=3e-3, betas=(0.9, 0.95), eps=1e-8)
    gen = torch.Generator().manual_seed(1)

    def step():
        starts = torch.randint(0, n - T - 1, (B,), generator=gen)
        seq = torch.stack([stream[i:i + T + 1] for i in starts.tolist()])
        loss = model(seq[:, :-1], seq[:, 1:])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        return loss

    for _ in range(3):  # warm-up
        step()
    # At least --steps, and more until a second has passed (lm_bench.cpp does the same).
    cpu0, wall0 = time.process_time(), time.perf_counter()
    done = 0
    while done < a.steps or time.perf_counter() - wall0 < 1.0:
        step()
        done += 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    tokens = done * B * T
    print(json.dumps({'torch': torch.__version__, 'threads': a.threads, 'steps': done,
                      'tokens_per_s': tokens / wall, 'cpu_tokens_per_s': tokens / cpu,
                      'step_ms': 1000 * wall / done, 'blas': torch.__config__.show().count('BLAS') and
                      [line.strip() for line in torch.__config__.show().splitlines() if 'BLAS' in line][:2]}))


if __name__ == '__main__':
    main()
