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
// Vadari, "The Model Parking Tax: Quantifying the Hidden Energy Cost of Always-On GPU Model Deployment"
// (arXiv 2605.23918, 2026), Table 2: board power of an otherwise idle GPU (nvidia-smi, 40 samples over 20
// minutes, standard deviation under 0.2 W), with no CUDA context (its clocks drop) and with one open and
// nothing running (its clocks stay at boost): H100 80GB SXM 71.8 and 121.7 W, A100 80GB PCIe 53.7 and 80.0 W.
constexpr double kVadariH100BareIdleW = 71.8;
constexpr double kVadariH100ContextIdleW = 121.7;
constexpr double kVadariA100BareIdleW = 53.7;
constexpr double kVadariA100ContextIdleW = 80.0;
// The Perseus artifact (Chung et al., SOSP 2024; github.com/ml-energy/zeus, branch kronos, Apache-2.0,
// lowtime/scripts/perseus.py) charges an A100 blocked on communication 83.64 W: the blocking power its
// planner takes as given (the artifact does not record how it was read; its repository has a profiler for
// it).
constexpr double kPerseusA100BlockingW = 83.64;

const char* const kVadariBare = "Vadari, arXiv 2605.23918 (2026), Table 2: no CUDA context";
const char* const kVadariContext = "Vadari, arXiv 2605.23918 (2026), Table 2: CUDA context, no work";

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

ClusterProfile presetCluster(const std::string& id) {
    const std::optional<ClusterProfile> cluster = findClusterPreset(id);
    if (!cluster)
        throw InputError(id, 0, 0, "a power measurement names an unknown cluster preset");
    return *cluster;
}

ModelSpec presetModel(const std::string& id) {
    const std::optional<ModelSpec> model = findModelPreset(id);
    if (!model)
        throw InputError(id, 0, 0, "a power measurement names an unknown model preset");
    return *model;
}

// The preset key an idle or waiting reading stands beside.
const char* boardReadingKey(MeasuredPower kind) {
    return kind == MeasuredPower::GpuBoardIdle ? "idle_w" : "wait_w";
}

// In the measurement's scope: one GPU's board power, or a node's GPUs and its parts outside them.
double inScope(const PowerMeasurement& m, const ClusterProfile& cluster, double gpuW) {
    return m.kind == MeasuredPower::NodeWallTraining ? cluster.gpusPerNode * gpuW + cluster.nodeOverheadW
                                                     : gpuW;
}

PowerCheck check(const PowerMeasurement& m) {
    const ClusterProfile cluster = presetCluster(m.cluster);
    PowerCheck c;
    c.measurement = m;
    c.nodeOverheadW = cluster.nodeOverheadW;
    if (isBoardReading(m.kind)) {
        c.gpuW =
            m.kind == MeasuredPower::GpuBoardIdle ? cluster.accelerator.idleW : cluster.accelerator.waitW;
        c.gpuWHalfBatch = c.gpuWDoubleBatch = c.modelW = c.gpuW;
        return c;
    }
    const ModelSpec model = presetModel(m.model);
    const RankedConfig run = fastestRun(model, cluster, m.gpus, m.globalBatch);
    c.configuration = run.config.shapeLabel();
    c.gpuW = run.estimate.power.gpuAverageW;
    c.gpuWHalfBatch = fastestRun(model, cluster, m.gpus, m.globalBatch / 2).estimate.power.gpuAverageW;
    c.gpuWDoubleBatch = fastestRun(model, cluster, m.gpus, m.globalBatch * 2).estimate.power.gpuAverageW;
    c.modelW = inScope(m, cluster, c.gpuW);
    return c;
}

} // namespace

bool isBoardReading(MeasuredPower kind) {
    return kind == MeasuredPower::GpuBoardIdle || kind == MeasuredPower::GpuBoardWaiting;
}

double measuredH100NodeOverheadW() {
    return kLatifPeakW - kGpusPerH100Node * kH100PowerLimitW;
}

std::vector<PresetFigure> measuredPresetFigures() {
    std::vector<PresetFigure> figures;
    for (const char* hopper : {"dgx-h100", "dgx-h200"}) {
        figures.push_back({hopper, "node_overhead_w", measuredH100NodeOverheadW()});
        figures.push_back({hopper, "node_idle_w", measuredH100NodeOverheadW()});
        figures.push_back({hopper, "accelerator.idle_w", kVadariH100BareIdleW});
        figures.push_back({hopper, "accelerator.wait_w", kVadariH100ContextIdleW});
    }
    for (const char* a100 : {"dgx-a100-40gb", "dgx-a100-80gb"}) {
        figures.push_back({a100, "accelerator.idle_w", kVadariA100BareIdleW});
        figures.push_back({a100, "accelerator.wait_w", kVadariA100ContextIdleW});
    }
    return figures;
}

const std::vector<PowerMeasurement>& powerMeasurements() {
    static const std::vector<PowerMeasurement> measurements{
        {"Llama 2 13B on one 8-GPU H100 node, peak at the wall",
         "Latif et al., IEEE Access 2025 (arXiv 2412.08602)", "dgx-h100", "llama2-13b", 8, 256,
         MeasuredPower::NodeWallTraining, kLatifPeakW,
         "dgx-h100 node_overhead_w = " + grouped(static_cast<long long>(kLatifPeakW)) + " W - 8 x " +
             grouped(static_cast<long long>(kH100PowerLimitW)) +
             " W (GPUs near full utilisation at the peak)"},
        {"Llama 2 13B on one 8-GPU H100 node, typical at the wall",
         "Newkirk et al., arXiv 2506.14551 (2025): 76 % of the 10.2 kW rating", "dgx-h100", "llama2-13b", 8,
         256, MeasuredPower::NodeWallTraining, kNewkirkTypicalW, ""},
        {"a 6.1B transformer on 256 A100s, mean GPU board power over 8 days",
         "Dodge et al., FAccT 2022, Table 2: 13,812 kWh on 256 GPUs in 192 h", "dgx-a100-80gb",
         "megatron-7.5b", 256, 512, MeasuredPower::GpuBoardTraining,
         kDodgeGpuEnergyKwh * 1000.0 / (kDodgeGpus * kDodgeHours), ""},
        {"an H100 80GB SXM with no process on it", kVadariBare, "dgx-h100", "", 1, 0,
         MeasuredPower::GpuBoardIdle, kVadariH100BareIdleW, "dgx-h100 and dgx-h200 idle_w (a parked GPU)"},
        {"an A100 80GB PCIe with no process on it", kVadariBare, "dgx-a100-80gb", "", 1, 0,
         MeasuredPower::GpuBoardIdle, kVadariA100BareIdleW,
         "dgx-a100-40gb and dgx-a100-80gb idle_w (a parked GPU; no SXM4 board was measured)"},
        {"an H100 80GB SXM with the process alive, nothing running", kVadariContext, "dgx-h100", "", 1, 0,
         MeasuredPower::GpuBoardWaiting, kVadariH100ContextIdleW,
         "dgx-h100 and dgx-h200 wait_w (a working GPU while it waits)"},
        {"an A100 80GB PCIe with the process alive, nothing running", kVadariContext, "dgx-a100-80gb", "", 1,
         0, MeasuredPower::GpuBoardWaiting, kVadariA100ContextIdleW,
         "dgx-a100-40gb and dgx-a100-80gb wait_w (a working GPU while it waits)"},
        {"an A100 blocked on communication in NCCL",
         "Perseus artifact (Chung et al., SOSP 2024), lowtime/scripts/perseus.py", "dgx-a100-80gb", "", 1, 0,
         MeasuredPower::GpuBoardWaiting, kPerseusA100BlockingW, ""},
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
          "Published measurements of power, against the model. A training row is predicted from its job "
          "alone: the model's fastest configuration of the same job on the same GPUs (`search`'s first "
          "answer). A node's wall power is modelled as its GPUs' board power plus the preset's "
          "`node_overhead_w`; PUE is left out on both sides. The runs published no global batch: the model "
          "uses 256 sequences for the node and 512 for the A100 run, and the column beside the GPU power "
          "gives it at half and at twice that batch. The A100 run's shape was not published either; "
          "`megatron-7.5b` is the nearest preset to its 6.1 billion parameters. An idle or waiting row is a "
          "preset's `idle_w` (what a parked GPU draws) or `wait_w` (what a working GPU draws while it "
          "waits), "
          "read against the board measured (docs/MODEL.md (phase-powers)).\n\n"
          "| measured | source | model: configuration | GPU W | GPU W at half / twice the batch | node "
          "overhead W | model W | measured W | model / measured | use "
          "|\n|---|---|---|---:|---:|---:|---:|---:|---:|---|\n";
    for (const PowerCheck& c : checks) {
        const PowerMeasurement& m = c.measurement;
        const bool board = isBoardReading(m.kind);
        md << "| " << m.what << " | " << m.source << " | "
           << (board ? std::string(boardReadingKey(m.kind)) + " of " + m.cluster
                     : m.model + " on " + std::to_string(m.gpus) + " GPUs of " + m.cluster + ": " +
                           c.configuration)
           << " | " << fixed(c.gpuW, board ? 1 : 0) << " | "
           << (board ? "-" : fixed(c.gpuWHalfBatch, 0) + " / " + fixed(c.gpuWDoubleBatch, 0)) << " | "
           << (m.kind == MeasuredPower::NodeWallTraining ? grouped(static_cast<long long>(c.nodeOverheadW))
                                                         : "-")
           << " | " << (board ? fixed(c.modelW, 1) : grouped(std::llround(c.modelW))) << " | "
           << (board ? fixed(m.measuredW, 1) : grouped(std::llround(m.measuredW))) << " | "
           << fixed(c.ratio(), 3) << " | " << (m.calibrates.empty() ? "held out" : "sets " + m.calibrates)
           << " |\n";
    }
    md << "\nA GPU's power is the sum over a step of its phases (docs/MODEL.md (phase-powers)): computing at "
          "the authors' prototype's phase powers scaled to the board's limit, and waiting (exposed "
          "communication, pipeline bubbles, launch gaps) at the preset's measured `wait_w`, the board's draw "
          "with the job's process alive and nothing running. A parked GPU, one the job has released, draws "
          "the measured `idle_w`. The held-out training rows check the sum: where one reads more than 1, "
          "the model charges the GPUs more than the measured run drew.\n";
    return md.str();
}

} // namespace carbon3d::reports
