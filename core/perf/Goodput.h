// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ClusterProfile.h"
#include "domain/ExecutionOption.h"
#include "domain/Scenario.h"

namespace carbon3d {

// What a long run loses to interruptions and evaluation (docs/MODEL.md#goodput), per unit of productive
// training time: the performance model's step time is steady state, a real run is not.
//
// Interruptions arrive at random (Poisson) at rate lambda = GPUs x interruptions per GPU-hour; each costs a
// restart R and the work done since the last checkpoint. With a checkpoint every tau of training, the
// expected wall time to finish one interval is (1/lambda + R)(e^(lambda tau) - 1) (Daly 2006, without the
// checkpoint's own save time, which asynchronous checkpointing hides): per unit of productive time that is
// 1 + lostWork + restart below. Evaluation adds its own share.
struct GoodputShares {
    double interruptionsPerHour = 0.0; // lambda for this many GPUs
    double lostWork = 0.0;             // work redone after interruptions, at training power
    double restart = 0.0;              // restarts, the GPUs held at idle power
    double evaluation = 0.0;           // evaluation, at training power
    // Wall time per unit of productive training time.
    double wallPerProductive() const { return 1.0 + lostWork + restart + evaluation; }
    // The share of wall time that trains: the goodput.
    double productive() const { return 1.0 / wallPerProductive(); }
};

GoodputShares goodputShares(const ModellingOptions& modelling, int gpus);

// The least goodput an option may have and stay on the menu: below it the run spends more than 99 % of its
// time recovering, which no one would schedule.
constexpr double kLeastGoodput = 0.01;

// Applies the goodput to every option of a steady-state menu: throughput times the goodput, power averaged
// over training, redone work, evaluation (training power) and restarts (the option's GPUs and nodes idle).
// Drops options whose goodput is below kLeastGoodput, and those the losses leave slower than a cheaper
// option, so the menu stays a (power, throughput) Pareto frontier sorted by power (keepParetoFrontier).
void applyGoodput(ExecutionMenu& menu, const ModellingOptions& modelling, const ClusterProfile& cluster);

} // namespace carbon3d
