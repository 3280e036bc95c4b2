// SPDX-License-Identifier: MIT
#pragma once

#include "engine/Policy.h"

#include <memory>
#include <string>

namespace carbon3d {

// The communication-efficient levers of EADT (Cheng, Sun, Turner; docs/MODEL.md 9.6).
struct EadtParameters {
    double compressionRatio = 10.0; // r: DP all-reduce bytes divided by r (1 = no compression, no codec)
    std::string transferPrecision =
        "fp16"; // gradient all-reduce element type: fp32 | fp16 | bf16 | fp8 | job
    std::string arithmeticPrecision = "job"; // matrix-unit precision: fp32 | tf32 | fp16 | bf16 | fp8 | job
    double codecBytesPerParam = 16.0; // HBM bytes moved per local gradient element to encode + decode, B
    double extraStepsFraction = 0.05; // convergence penalty: extra work as a fraction of the job's, 0-1
    std::string innerName = "dynamic-3d";
};

// Codec cost of gradient compression on one menu option: each step also streams the GPU's gradient shard
// through HBM codecBytesPerParam times per element, at the option's power. The shard is the dense
// `parameters` / (t x p) and, for a mixture of experts, its routed experts' `expertParameters` / (ep x etp x
// p). Returns the option's new work rate, work/s: tokensPerStep / (tokensPerStep / rate + codec s). Options
// with one replica (no all-reduce) are unchanged.
double rateWithCodec(const ExecutionOption& option, double parameters, double tokensPerStep,
                     double hbmBytesPerS, double codecBytesPerParam, double expertParameters = 0.0);

// The performance-model menu under EADT's levers: arithmetic precision, all-reduce bytes per parameter =
// transfer element bytes / compression ratio, and (ratio > 1) each option's rate with the codec cost.
// Throws InputError when no configuration fits (e.g. a precision the accelerator lacks).
ExecutionMenu eadtMenu(const Scenario& scenario, const EadtParameters& parameters);

// EADT = a menu changed by the levers (adaptInput: the engine charges its input's menu) plus a carbon-aware
// single-region policy choosing from it. This class delegates every decision to the inner policy and
// records the levers in the run's options.
class EadtPolicy : public Policy {
public:
    EadtPolicy(EadtParameters parameters, std::unique_ptr<Policy> inner);
    std::string name() const override { return "eadt"; }
    std::map<std::string, std::string> options() const override;
    // The menu rebuilt under the levers and the convergence penalty as extra work; the deadline stays the
    // scenario's (not re-based on the new menu). A measured menu is kept, with a warning.
    std::optional<SimulationInput> adaptInput(const InputAdaptation& adaptation,
                                              const SimulationInput& input) override;
    void prepare(const PlanningContext& context) override { m_inner->prepare(context); }
    Decision decide(const DecisionState& state) override { return m_inner->decide(state); }
    std::vector<std::string> warnings() const override;

private:
    EadtParameters m_p;
    std::unique_ptr<Policy> m_inner;
    std::vector<std::string> m_warnings;
};

// This policy's entry in the catalogue (engine/PolicyRegistry.h).
struct PolicyInfo;
PolicyInfo eadtPolicyInfo();

} // namespace carbon3d
