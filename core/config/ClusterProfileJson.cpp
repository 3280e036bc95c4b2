// SPDX-License-Identifier: MIT
#include "config/ClusterProfileJson.h"

#include "config/ConfigFiles.h"
#include "config/JsonObjectReader.h"
#include "domain/InputError.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace carbon3d {

namespace {

constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;
constexpr double kGibibyte = 1024.0 * 1024.0 * 1024.0;

// Dense figures of named accelerators from their data sheets (TFLOP/s). A value at twice one of
// them is the vendor's "with sparsity" (2:4 structured) figure, which training does not reach.
struct KnownDenseFigure {
    const char* nameFragment; // matched case-insensitively inside the accelerator name
    const char* displayName;
    Precision precision;
    double denseTflops;
};

constexpr std::array kKnownDense{
    // NVIDIA H100 SXM5 / H200 SXM / GH200 data sheets: 989.4 dense BF16/FP16 (1,979 sparse),
    // 494.7 TF32 (989 sparse), 1,978.9 FP8 (3,958 sparse).
    KnownDenseFigure{"H100", "H100", Precision::BF16, 989.4},
    KnownDenseFigure{"H100", "H100", Precision::FP16, 989.4},
    KnownDenseFigure{"H100", "H100", Precision::TF32, 494.7},
    KnownDenseFigure{"H100", "H100", Precision::FP8, 1978.9},
    KnownDenseFigure{"H200", "H200", Precision::BF16, 989.4},
    KnownDenseFigure{"H200", "H200", Precision::FP16, 989.4},
    KnownDenseFigure{"H200", "H200", Precision::TF32, 494.7},
    KnownDenseFigure{"H200", "H200", Precision::FP8, 1978.9},
    KnownDenseFigure{"H800", "H800", Precision::BF16, 989.4},
    KnownDenseFigure{"H800", "H800", Precision::FP16, 989.4},
    // NVIDIA A100 data sheet: 312 dense BF16/FP16 (624 sparse), 156 TF32 (312 sparse).
    KnownDenseFigure{"A100", "A100", Precision::BF16, 312.0},
    KnownDenseFigure{"A100", "A100", Precision::FP16, 312.0},
    KnownDenseFigure{"A100", "A100", Precision::TF32, 156.0},
    KnownDenseFigure{"A800", "A800", Precision::BF16, 312.0},
    KnownDenseFigure{"A800", "A800", Precision::FP16, 312.0},
    // AMD Instinct MI300X data sheet: 1,307.4 dense BF16/FP16 (2,614.9 sparse), 653.7 TF32,
    // 2,614.9 FP8 (5,229.8 sparse).
    KnownDenseFigure{"MI300X", "MI300X", Precision::BF16, 1307.4},
    KnownDenseFigure{"MI300X", "MI300X", Precision::FP16, 1307.4},
    KnownDenseFigure{"MI300X", "MI300X", Precision::TF32, 653.7},
    KnownDenseFigure{"MI300X", "MI300X", Precision::FP8, 2614.9},
};

// Above these no shipping accelerator reaches densely; the highest dense figures are AMD MI300X's
// (1,307.4 BF16/FP16, 653.7 TF32, 2,614.9 FP8, 163.4 FP32 matrix). A larger number is a sparse
// figure, a per-node figure or a unit slip.
double denseBoundTflops(Precision precision) {
    switch (precision) {
    case Precision::BF16:
    case Precision::FP16:
        return 1400.0;
    case Precision::TF32:
        return 700.0;
    case Precision::FP8:
        return 2800.0;
    case Precision::FP32:
        return 200.0;
    }
    return 1400.0;
}

std::string toUpper(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return text;
}

void checkDense(const JsonObjectReader& reader, const JsonValue& value, const std::string& acceleratorName,
                Precision precision, double tflops) {
    const std::string key = reader.qualified(precisionName(precision));
    const std::string upperName = toUpper(acceleratorName);
    for (const KnownDenseFigure& known : kKnownDense) {
        if (known.precision != precision || upperName.find(known.nameFragment) == std::string::npos)
            continue;
        // 1 % covers data sheets that round the sparse figure (1,979 vs 2 x 989.4 = 1,978.8).
        if (std::fabs(tflops - 2.0 * known.denseTflops) <= 0.01 * 2.0 * known.denseTflops) {
            reader.failAt(value, key + " = " + formatNumber(tflops) +
                                     " looks like the sparse (2:4) figure of an " + known.displayName +
                                     "; Carbon3D needs the dense figure (" + formatNumber(known.denseTflops) +
                                     ")");
        }
    }
    const double bound = denseBoundTflops(precision);
    if (tflops > bound) {
        reader.failAt(value, key + " = " + formatNumber(tflops) +
                                 " TFLOP/s is above any shipping accelerator's dense " +
                                 precisionName(precision) + " figure (bound " + formatNumber(bound) +
                                 "); it looks like a sparse (2:4) figure; Carbon3D needs the dense figure");
    }
}

// Writers use 15 significant digits for unit-converted values: the division back from SI adds an
// ulp of noise that would otherwise print as 2.0390000000000001.
JsonValue roundedNumber(double value) {
    // to_chars/from_chars: the C library's %g and strtod would follow the locale's decimal separator.
    std::array<char, 40> buffer{};
    const auto written =
        std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::general, 15);
    double rounded = value;
    std::from_chars(buffer.data(), written.ptr, rounded);
    return JsonValue::makeNumber(rounded);
}

std::map<Precision, double> readPeakFlops(JsonObjectReader& accel, const std::string& acceleratorName) {
    const JsonValue& peak = accel.object("peak_tflops");
    JsonObjectReader reader(peak, accel.file(), accel.qualified("peak_tflops"));
    std::map<Precision, double> flops;
    for (const JsonValue::Member& m : peak.members()) {
        const std::optional<Precision> precision = parsePrecision(m.key);
        if (!precision) {
            throw InputError(accel.file(), m.line, m.column,
                             "unknown precision '" + m.key + "' in '" + accel.qualified("peak_tflops") +
                                 "'; expected one of: " + precisionNames());
        }
        const double tflops = *reader.optionalNumber(m.key, 1e-3, 1e5, "TFLOP/s");
        checkDense(reader, m.value, acceleratorName, *precision, tflops);
        flops[*precision] = tflops * kTera;
    }
    if (flops.empty())
        accel.failAt(peak, "'" + accel.qualified("peak_tflops") +
                               "' needs at least one precision, e.g. \"bf16\": 312");
    reader.finish();
    return flops;
}

AcceleratorSpec readAccelerator(JsonObjectReader& parent) {
    JsonObjectReader reader(parent.object("accelerator"), parent.file(), parent.qualified("accelerator"));
    AcceleratorSpec spec;
    spec.name = reader.string("name");
    spec.peakFlops = readPeakFlops(reader, spec.name);
    spec.memoryBytes = reader.number("memory_gib", 1.0, 4096.0, "GiB") * kGibibyte;
    spec.hbmBytesPerS = reader.number("hbm_tb_per_s", 0.05, 50.0, "TB/s") * kTera;
    spec.tdpW = reader.number("tdp_w", 10.0, 5000.0, "W");
    // Absent: the limit cannot be lowered (a board without power capping).
    spec.minPowerLimitW = reader.optionalNumber("min_power_limit_w", 1.0, spec.tdpW, "W").value_or(spec.tdpW);
    spec.idleW = reader.number("idle_w", 0.0, spec.tdpW, "W");
    // Absent: not measured; the power model's communication phase stands in (docs/MODEL.md#phase-powers).
    spec.waitW = reader.optionalNumber("wait_w", spec.idleW, spec.tdpW, "W").value_or(0.0);
    // Absent: true, as for every accelerator since NVIDIA Ampere and AMD CDNA 2 (docs/MODEL.md#attention).
    spec.flashAttention = reader.optionalBoolean("flash_attention").value_or(true);
    reader.finish();
    return spec;
}

// The profile's calibration, and in `family` the family it starts from.
PerfCalibration readCalibration(JsonObjectReader& parent, CalibrationFamily& family) {
    PerfCalibration calibration;
    family = CalibrationFamily::A100;
    const JsonValue* json = parent.optionalObject("calibration");
    if (json == nullptr)
        return calibration;
    JsonObjectReader reader(*json, parent.file(), parent.qualified("calibration"));
    if (const std::optional<std::string> name = reader.optionalString("family")) {
        const std::optional<CalibrationFamily> named = parseCalibrationFamily(*name);
        if (!named)
            reader.failAtKey("family", reader.qualified("family") + ": expected " + calibrationFamilyNames() +
                                           ", found '" + *name + "'");
        family = *named;
        calibration = familyCalibration(family);
    }
    for (const PerfCalibrationField& field : perfCalibrationFields()) {
        if (const std::optional<double> v =
                reader.optionalNumber(field.key, field.min, field.max, field.unit))
            calibration.*field.member = *v;
    }
    reader.finish();
    return calibration;
}

std::vector<PowerLimitPoint> readPowerLimitCurve(JsonObjectReader& parent,
                                                 const AcceleratorSpec& accelerator) {
    std::vector<PowerLimitPoint> curve;
    const JsonValue* json = parent.optionalArray("power_limit_curve");
    if (json == nullptr)
        return curve;
    if (json->items().empty())
        parent.failAt(*json, "'power_limit_curve' is empty; omit it or give at least one measured point");
    for (size_t i = 0; i < json->items().size(); ++i) {
        const JsonValue& item = json->items()[i];
        JsonObjectReader reader(item, parent.file(),
                                parent.qualified("power_limit_curve[" + std::to_string(i) + "]"));
        PowerLimitPoint point;
        point.powerLimitW = reader.number("power_limit_w", 1.0, accelerator.tdpW, "W");
        point.relativeThroughput =
            reader.number("relative_throughput", 1e-3, 1.0, "fraction of uncapped throughput");
        // Measured mean power may exceed a limit briefly but not the board's maximum by much.
        point.averagePowerW = reader.number("average_power_w", 1.0, 1.2 * accelerator.tdpW, "W");
        reader.finish();
        if (!curve.empty() && point.powerLimitW <= curve.back().powerLimitW) {
            reader.failAt(*item.find("power_limit_w"),
                          "'power_limit_curve' must be sorted by strictly increasing power_limit_w (" +
                              formatNumber(point.powerLimitW) + " W follows " +
                              formatNumber(curve.back().powerLimitW) + " W)");
        }
        curve.push_back(point);
    }
    return curve;
}

std::map<std::string, std::string> readSources(JsonObjectReader& parent) {
    std::map<std::string, std::string> sources;
    const JsonValue* json = parent.optionalObject("sources");
    if (json == nullptr)
        return sources;
    JsonObjectReader reader(*json, parent.file(), "sources");
    const std::vector<std::string>& keys = clusterSourceKeys();
    for (const std::string& key : keys) {
        if (std::optional<std::string> text = reader.optionalString(key))
            sources[key] = std::move(*text);
    }
    reader.finish(); // a source for a field that does not exist is a typo
    return sources;
}

} // namespace

const std::vector<std::string>& clusterSourceKeys() {
    static const std::vector<std::string> keys{"accelerator.peak_tflops",
                                               "accelerator.memory_gib",
                                               "accelerator.hbm_tb_per_s",
                                               "accelerator.tdp_w",
                                               "accelerator.min_power_limit_w",
                                               "accelerator.idle_w",
                                               "accelerator.wait_w",
                                               "accelerator.flash_attention",
                                               "gpus_per_node",
                                               "intra_node_gb_per_s",
                                               "inter_node_gb_per_s",
                                               "node_overhead_w",
                                               "node_idle_w",
                                               "pue",
                                               "gpu_power_scale",
                                               "embodied_kg_per_gpu",
                                               "service_life_years",
                                               "gpus_available",
                                               "gpu_price_usd_per_hour",
                                               "calibration",
                                               "power_limit_curve"};
    return keys;
}

ClusterProfile readClusterProfile(JsonObjectReader& reader) {
    ClusterProfile cluster;
    cluster.id = reader.optionalString("id").value_or(std::string());
    cluster.name = reader.string("name");
    cluster.accelerator = readAccelerator(reader);
    cluster.gpusPerNode = reader.integer("gpus_per_node", 1, 256, "GPUs");
    cluster.intraNodeBytesPerS =
        reader.number("intra_node_gb_per_s", 1.0, 10000.0, "GB/s per GPU, one direction") * kGiga;
    cluster.interNodeBytesPerS =
        reader.number("inter_node_gb_per_s", 0.01, 10000.0, "GB/s per GPU, one direction") * kGiga;
    cluster.nodeOverheadW = reader.number("node_overhead_w", 0.0, 100000.0, "W per node");
    // Optional for profiles written before it existed: a held node then idles at its load figure, which
    // never overstates what a pause saves (docs/DECISIONS.md, "Power of held nodes").
    cluster.nodeIdleW = reader.optionalNumber("node_idle_w", 0.0, cluster.nodeOverheadW, "W per node")
                            .value_or(cluster.nodeOverheadW);
    cluster.pue = reader.optionalNumber("pue", 1.0, 3.0, "").value_or(ClusterProfile{}.pue);
    cluster.embodiedKgPerGpu = reader.number("embodied_kg_per_gpu", 0.0, 20000.0, "kgCO2e");
    cluster.serviceLifeYears = reader.optionalNumber("service_life_years", 0.5, 30.0, "years")
                                   .value_or(ClusterProfile{}.serviceLifeYears);
    cluster.gpusAvailable = reader.integer("gpus_available", 1, 10000000, "GPUs");
    // Optional: a profile without it is not priced (its runs' GPU cost is 0, with a warning).
    cluster.gpuPriceUsdPerHour =
        reader.optionalNumber("gpu_price_usd_per_hour", 0.0, 1000.0, "USD per GPU-hour")
            .value_or(ClusterProfile{}.gpuPriceUsdPerHour);
    cluster.calibration = readCalibration(reader, cluster.calibrationFamily);
    // A profile calibrated on a power log before the scale moved into "calibration" holds it at the top
    // level; it is the same scale of the same power model, so it becomes the calibration's.
    if (const std::optional<double> legacyScale =
            reader.optionalNumber("gpu_power_scale", 0.25, 4.0, "x the power model's GPU power"))
        cluster.calibration.gpuPowerScale = *legacyScale;
    cluster.powerLimitCurve = readPowerLimitCurve(reader, cluster.accelerator);
    cluster.sources = readSources(reader);
    return cluster;
}

ClusterProfile parseClusterProfile(const JsonValue& json, const std::string& file) {
    JsonObjectReader reader(json, file);
    reader.schema();
    ClusterProfile cluster = readClusterProfile(reader);
    reader.finish();
    return cluster;
}

ClusterProfile loadClusterProfile(const std::string& path) {
    return parseClusterProfile(readJsonFile(path), path);
}

JsonValue toJson(const ClusterProfile& cluster) {
    JsonValue json = JsonValue::makeObject();
    json.insert("schema", JsonValue::makeNumber(kConfigSchemaVersion));
    if (!cluster.id.empty())
        json.insert("id", JsonValue::makeString(cluster.id));
    json.insert("name", JsonValue::makeString(cluster.name));

    const AcceleratorSpec& spec = cluster.accelerator;
    JsonValue accel = JsonValue::makeObject();
    accel.insert("name", JsonValue::makeString(spec.name));
    JsonValue peak = JsonValue::makeObject();
    // Highest precision first reads naturally in a data-sheet order (fp8 ... fp32).
    for (const Precision p :
         {Precision::FP8, Precision::BF16, Precision::FP16, Precision::TF32, Precision::FP32}) {
        const auto it = spec.peakFlops.find(p);
        if (it != spec.peakFlops.end())
            peak.insert(precisionName(p), roundedNumber(it->second / kTera));
    }
    accel.insert("peak_tflops", std::move(peak));
    accel.insert("memory_gib", roundedNumber(spec.memoryBytes / kGibibyte));
    accel.insert("hbm_tb_per_s", roundedNumber(spec.hbmBytesPerS / kTera));
    accel.insert("tdp_w", JsonValue::makeNumber(spec.tdpW));
    accel.insert("min_power_limit_w", JsonValue::makeNumber(spec.minPowerLimitW));
    accel.insert("idle_w", JsonValue::makeNumber(spec.idleW));
    // Written only when measured, so that profiles and scenario hashes without it stay as they were.
    if (spec.waitW > 0.0)
        accel.insert("wait_w", JsonValue::makeNumber(spec.waitW));
    accel.insert("flash_attention", JsonValue::makeBool(spec.flashAttention));
    json.insert("accelerator", std::move(accel));

    json.insert("gpus_per_node", JsonValue::makeNumber(cluster.gpusPerNode));
    json.insert("intra_node_gb_per_s", roundedNumber(cluster.intraNodeBytesPerS / kGiga));
    json.insert("inter_node_gb_per_s", roundedNumber(cluster.interNodeBytesPerS / kGiga));
    json.insert("node_overhead_w", JsonValue::makeNumber(cluster.nodeOverheadW));
    json.insert("node_idle_w", JsonValue::makeNumber(cluster.nodeIdleW));
    json.insert("pue", JsonValue::makeNumber(cluster.pue));
    json.insert("embodied_kg_per_gpu", JsonValue::makeNumber(cluster.embodiedKgPerGpu));
    json.insert("service_life_years", JsonValue::makeNumber(cluster.serviceLifeYears));
    json.insert("gpus_available", JsonValue::makeNumber(cluster.gpusAvailable));
    if (std::isfinite(cluster.gpuPriceUsdPerHour))
        json.insert("gpu_price_usd_per_hour", JsonValue::makeNumber(cluster.gpuPriceUsdPerHour));

    JsonValue calibration = JsonValue::makeObject();
    // The family says what the values rest on (the studio shows it); the A100 default is left unsaid, so
    // files and scenario hashes written before families existed stay as they were.
    if (cluster.calibrationFamily != CalibrationFamily::A100)
        calibration.insert(
            "family", JsonValue::makeString(std::string(calibrationFamilyName(cluster.calibrationFamily))));
    for (const PerfCalibrationField& field : perfCalibrationFields()) {
        // The power scale joined the calibration after profiles and scenario hashes were written without
        // it: left out at 1 (uncalibrated), so that they stay as they were.
        if (field.member == &PerfCalibration::gpuPowerScale && cluster.calibration.gpuPowerScale == 1.0)
            continue;
        calibration.insert(field.key, JsonValue::makeNumber(cluster.calibration.*field.member));
    }
    json.insert("calibration", std::move(calibration));

    if (!cluster.powerLimitCurve.empty()) {
        JsonValue curve = JsonValue::makeArray();
        for (const PowerLimitPoint& point : cluster.powerLimitCurve) {
            JsonValue item = JsonValue::makeObject();
            item.insert("power_limit_w", JsonValue::makeNumber(point.powerLimitW));
            item.insert("relative_throughput", JsonValue::makeNumber(point.relativeThroughput));
            item.insert("average_power_w", JsonValue::makeNumber(point.averagePowerW));
            curve.append(std::move(item));
        }
        json.insert("power_limit_curve", std::move(curve));
    }
    if (!cluster.sources.empty()) {
        JsonValue sources = JsonValue::makeObject();
        for (const auto& [key, text] : cluster.sources)
            sources.insert(key, JsonValue::makeString(text));
        json.insert("sources", std::move(sources));
    }
    return json;
}

} // namespace carbon3d
