// SPDX-License-Identifier: MIT
#pragma once

namespace carbon3d {

// Synchronous training waits for its slowest GPU. Nominally identical GPUs sustain different speeds (chip,
// clock and cooling differences that persist from run to run: docs/MODEL.md#stragglers), so a step over n
// GPUs drawn from a fleet whose per-GPU speed has a relative spread (coefficient of variation) s takes, on
// average, its mean time times 1 + s x E[max of n standard normal draws].

// E[max of n independent standard normal draws]: 0 for n = 1, 1.42 for 8, 3.04 for 512 (integrated
// numerically once at n = 2^(k/8), then interpolated in log2 n: within 0.2 % of the exact values).
double expectedMaxOfNormals(int n);

// The time a step spends waiting for its slowest GPU when `synchronisedS` of it runs in lockstep over
// `gpus` GPUs whose speed spreads by `spread`.
double stragglerWaitS(double spread, int gpus, double synchronisedS);

} // namespace carbon3d
