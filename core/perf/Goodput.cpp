// SPDX-License-Identifier: MIT
#include "perf/Goodput.h"

#include "perf/ExecutionMenuBuilder.h"

#include <algorithm>
#include <cmath>

namespace carbon3d {

GoodputShares goodputShares(const ModellingOptions& modelling, int gpus) {
    GoodputShares shares;
    shares.evaluation = modelling.evaluationFraction;
    const double lambdaPerS = gpus * modelling.interruptionsPerGpuHour / 3600.0;
    shares.interruptionsPerHour = lambdaPerS * 3600.0;
    const double tau = modelling.checkpointIntervalSeconds;
    if (lambdaPerS <= 0.0 || tau <= 0.0)
        return shares;
    // Expected interruptions per checkpoint interval, e^(lambda tau) - 1 (expm1 keeps small rates exact).
    // Past lambda tau = 700 the exponential overflows: the run never finishes an interval.
    const double x = lambdaPerS * tau;
    if (x > 700.0) {
        shares.lostWork = HUGE_VAL;
        return shares;
    }
    const double interruptions = std::expm1(x);
    shares.lostWork = interruptions / x - 1.0;
    shares.restart = interruptions * modelling.restartSeconds / tau;
    return shares;
}

void applyGoodput(ExecutionMenu& menu, const ModellingOptions& modelling, const ClusterProfile& cluster) {
    const int perNode = std::max(1, cluster.gpusPerNode);
    ExecutionMenu kept;
    kept.reserve(menu.size());
    for (ExecutionOption option : menu) {
        const GoodputShares shares = goodputShares(modelling, option.gpusActive);
        if (!(shares.productive() >= kLeastGoodput))
            continue;
        const double wall = shares.wallPerProductive();
        const double atTraining = (1.0 + shares.lostWork + shares.evaluation) / wall;
        const double atRestart = shares.restart / wall;
        const int nodes = (option.gpusActive + perNode - 1) / perNode;
        const double idleGpusW = option.gpusActive * cluster.accelerator.idleW;
        option.workPerSecond /= wall;
        option.activePowerW =
            atTraining * option.activePowerW + atRestart * (idleGpusW + nodes * cluster.nodeOverheadW);
        if (option.gpuPowerW > 0.0)
            option.gpuPowerW = atTraining * option.gpuPowerW + atRestart * idleGpusW;
        kept.push_back(option);
    }
    // Larger options lose more, so one may now be slower than a cheaper one: no policy would choose it.
    keepParetoFrontier(kept);
    menu = std::move(kept);
}

} // namespace carbon3d
