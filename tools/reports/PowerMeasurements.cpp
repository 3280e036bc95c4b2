// SPDX-License-Identifier: MIT
#include "reports/PowerMeasurements.h"

#include "config/Presets.h"
#include "domain/InputError.h"
#include "perf/ConfigSearch.h"
#include "perf/PerfModel.h"
#include "reports/NumberFormat.h"

#include <cmath>
#include <sstream>

namespace carbon3d::reports {

namespace {

// Latif, Newkirk, Carbone, Munir, Lin, Koomey, Yu, Dong, "Single-Node Power Demand During AI Training:
// Measurements on an 8-GPU NVIDIA H100 System", IEEE Access 13 (2025) 61740-61747 (arXiv 2412.08602):
// the wall power of an 8-GPU H100 HGX node training Llama 2 13B peaked at about 8.4 kW, 18 % under the
// rated 10.2 kW, with the GPUs near full utilisation.
constexpr double kLatifPeakW = 8400.0;
constexpr double kH100PowerLimitW = 700.0;
constexpr int kGpusPerH100Node = 8;
// Newkirk, Fernandez, Koomey, Latif, Strubell, Shehabi, Samaras, "Empirically-Calibrated H100 Node Power
// Models for Reducing Uncertainty in AI Training Energy Estimation" (arXiv 2506.14551, 2025): compute-heavy
// training on the same nodes draws about 76 % of the 10.2 kW rating.
constexpr double kNewkirkTypicalW = 0.76 * 10200.0;
// Dodge, Prewitt, Tachet des Combes, Odmark, Schwartz, Strubell, Luccioni, Smith, DeCario, Buchanan,
// "Measuring the Carbon Intensity of AI in Cloud Instances", FAccT 2022, Table 2: a 6.1-billion-parameter
// transformer trained on 256 A100s for 8 days (13 % of its run) used 13,812 kWh measured at the GPUs:
// 13,812 kWh / (256 x 192 h) = 281 W per GPU.
constexpr double kDodgeGpuEnergyKwh = 13812.4;
constexpr double kDodgeGpus = 256.0;
constexpr double kDodgeHours = 8.0 * 24.0;

// The fastest configuration of `model` at `globalBatch` on exactly `gpus` GPUs of `cluster`.
RankedConfig fastestRun(const ModelSpec& model, const ClusterProfile& cluster, int gpus, int globalBatch) {
    TrainingJob job;
    job.model = model;
    job.globalBatch = globalBatch;
    const PerfProblem problem = makePerfProblem(job, cluster);
    SearchOptions options = searchOptionsFor(job, gpus);
    options.exactGpus = true;
    const std::vector<RankedConfig> fastest = searchConfigs(problem, options, 1);
    if (fastest.empty())
        throw InputError(model.id, 0, 0, "no configuration of the measured run fits its GPUs");
    return fastest.front();
}

PowerCheck check(const PowerMeasurement& m) {
    const std::optional<ClusterProfile> cluster = findClusterPreset(m.cluster);
    const std::optional<ModelSpec> model = findModelPreset(m.model);
    if (!cluster || !model)
        throw InputError(m.cluster + ", " + m.model, 0, 0, "a power measurement names an unknown preset");
    const RankedConfig run = fastestRun(*model, *cluster, m.gpus, m.globalBatch);
    PowerCheck c;
    c.measurement = m;
    c.configuration = run.config.shapeLabel();
    c.gpuW = run.estimate.power.gpuAverageW;
    c.gpuWHalfBatch = fastestRun(*model, *cluster, m.gpus, m.globalBatch / 2).estimate.power.gpuAverageW;
    c.gpuWDoubleBatch = fastestRun(*model, *cluster, m.gpus, m.globalBatch * 2).estimate.power.gpuAverageW;
    c.nodeOverheadW = cluster->nodeOverheadW;
    c.modelW = m.scope == PowerScope::GpuBoard ? c.gpuW : cluster->gpusPerNode * c.gpuW + c.nodeOverheadW;
    return c;
}

} // namespace

double measuredH100NodeOverheadW() {
    return kLatifPeakW - kGpusPerH100Node * kH100PowerLimitW;
}

const std::vector<PowerMeasurement>& powerMeasurements() {
    static const std::vector<PowerMeasurement> measurements{
        {"Llama 2 13B on one 8-GPU H100 node, peak at the wall",
         "Latif et al., IEEE Access 2025 (arXiv 2412.08602)", "dgx-h100", "llama2-13b", 8, 256,
         PowerScope::NodeWall, kLatifPeakW,
         "dgx-h100 node_overhead_w = " + grouped(static_cast<long long>(kLatifPeakW)) + " W - 8 x " +
             grouped(static_cast<long long>(kH100PowerLimitW)) +
             " W (GPUs near full utilisation at the peak)"},
        {"Llama 2 13B on one 8-GPU H100 node, typical at the wall",
         "Newkirk et al., arXiv 2506.14551 (2025): 76 % of the 10.2 kW rating", "dgx-h100", "llama2-13b", 8,
         256, PowerScope::NodeWall, kNewkirkTypicalW, ""},
        {"a 6.1B transformer on 256 A100s, mean GPU board power over 8 days",
         "Dodge et al., FAccT 2022, Table 2: 13,812 kWh on 256 GPUs in 192 h", "dgx-a100-80gb",
         "megatron-7.5b", 256, 512, PowerScope::GpuBoard,
         kDodgeGpuEnergyKwh * 1000.0 / (kDodgeGpus * kDodgeHours), ""},
    };
    return measurements;
}

std::vector<PowerCheck> checkPowerMeasurements() {
    std::vector<PowerCheck> checks;
    for (const PowerMeasurement& m : powerMeasurements())
        checks.push_back(check(m));
    return checks;
}

std::string powerMeasurementsMarkdown(const std::vector<PowerCheck>& checks) {
    std::ostringstream md;
    md << "\n## Power against measurements\n\n"
          "Published measurements of power while training a transformer, against the model's fastest "
          "configuration of the same job on the same GPUs (`search`'s first answer). A node's wall power is "
          "modelled as its GPUs' board power plus the preset's `node_overhead_w`; PUE is left out on both "
          "sides. The runs published no global batch: the model uses 256 sequences for the node and 512 for "
          "the A100 run, and the column beside the GPU power gives it at half and at twice that batch. The "
          "A100 run's shape was not published either; `megatron-7.5b` is the nearest preset to its 6.1 "
          "billion parameters.\n\n"
          "| measured | source | model: configuration | GPU W | GPU W at half / twice the batch | node "
          "overhead W "
          "| model W | measured W | model / measured | use "
          "|\n|---|---|---|---:|---:|---:|---:|---:|---:|---|\n";
    for (const PowerCheck& c : checks) {
        const PowerMeasurement& m = c.measurement;
        md << "| " << m.what << " | " << m.source << " | " << m.model << " on " << m.gpus << " GPUs of "
           << m.cluster << ": " << c.configuration << " | " << fixed(c.gpuW, 0) << " | "
           << fixed(c.gpuWHalfBatch, 0) << " / " << fixed(c.gpuWDoubleBatch, 0) << " | "
           << (m.scope == PowerScope::NodeWall ? grouped(static_cast<long long>(c.nodeOverheadW)) : "-")
           << " | " << grouped(std::llround(c.modelW)) << " | " << grouped(std::llround(m.measuredW)) << " | "
           << fixed(c.ratio(), 3) << " | " << (m.calibrates.empty() ? "held out" : "sets " + m.calibrates)
           << " |\n";
    }
    md << "\nThe GPUs' power per phase is still the prototype's (docs/MODEL.md (phase-powers)), scaled to "
          "each "
          "board's limit: where a held-out row above reads more than 1, the model charges the GPUs more than "
          "the measured run drew.\n";
    return md.str();
}

} // namespace carbon3d::reports
