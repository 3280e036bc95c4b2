// SPDX-License-Identifier: MIT
// carbon3d-validate calibrate: fits PerfCalibration to the measured runs and prints the values to compile in.
#include "commands/ValidateCommands.h"
#include "domain/NumberText.h"
#include "domain/PerfCalibration.h"
#include "reports/NumberFormat.h"
#include "validation/Calibration.h"
#include "validation/InterleaveSweep.h"
#include "validation/PublishedThroughput.h"
#include "validation/ValidationSet.h"

#include <ostream>

namespace carbon3d::cli {

Command makeCalibrateCommand() {
    Command command;
    command.name = "calibrate";
    command.summary = "fit the performance model's PerfCalibration to tests/data/validation";
    command.usage = "calibrate --data DIR [--max-evaluations N]";
    command.details =
        "Starts from the compiled-in defaults, fits every A100 parameter on the A100 sets, then "
        "pipeline_transfer_overhead_s on the interleaved / plain 1F1B speed-ups of DIR/zero_bubble, then the "
        "Hopper family's gemm_efficiency_max on the BF16 and fp8_cast_bytes_per_element on the FP8 "
        "calibration rows of DIR/hopper, then the CDNA 3 family's gemm_efficiency_max on the FP8 "
        "calibration rows of DIR/cdna3 (never the held-out rows), and prints the fitted values as JSON (a "
        "cluster's \"calibration\" object).";
    command.flags = {{"data", true, false, "DIR", "tests/data/validation"},
                     {"max-evaluations", true, false, "N", "loss evaluations (default 6000)"}};
    command.run = [](const CliArguments& args, CommandIo& io) {
        const auto data = args.value("data");
        if (!data)
            throw UsageError("--data is required");
        const auto rows = loadValidationRows(*data);
        const int evaluations = args.intValue("max-evaluations", 1, 10000000).value_or(6000);
        CalibrationResult result = calibrate(rows, PerfCalibration{}, evaluations);
        // Each later one-value fit starts from the values as printed (and so compiled in), so that a fit
        // rerun from the compiled defaults, as tst_validation does, lands on the printed value.
        const auto asPrinted = [](PerfCalibration calibration) {
            for (const PerfCalibrationField& field : perfCalibrationFields())
                calibration.*field.member = *parseDecimal(reports::significant(calibration.*field.member, 4));
            return calibration;
        };
        result.fitted = asPrinted(result.fitted);
        // Then the cost of interleaving, on the measured speed-ups of interleaved over plain 1F1B.
        const auto sweep = loadInterleaveSweep(*data);
        const double sweepBefore = interleaveLoss(sweep, interleaveSweepCluster(result.fitted));
        result.fitted = asPrinted(fitPipelineTransferOverhead(sweep, result.fitted));
        io.out << "interleave speed-ups (zero_bubble) loss " << sweepBefore << " -> "
               << interleaveLoss(sweep, interleaveSweepCluster(result.fitted)) << '\n';
        // Then the Hopper family on its calibration rows (never the held-out ones): its BF16 GEMM
        // efficiency, then the FP8 cast with it. The FP8 term is every FP8 profile's default.
        const auto hopperRows = loadPublishedThroughput(*data);
        PerfCalibration hopper = familyCalibration(CalibrationFamily::Hopper, result.fitted);
        const double bf16Before = throughputLoss(hopperRows, Precision::BF16, hopper);
        hopper = asPrinted(fitGemmEfficiency(hopperRows, hopper, Precision::BF16));
        const double fp8Before = throughputLoss(hopperRows, Precision::FP8, hopper);
        hopper = fitFp8Cast(hopperRows, hopper);
        result.fitted.fp8CastBytesPerElement = hopper.fp8CastBytesPerElement;
        io.out << "hopper bf16 (calibration rows) loss " << bf16Before << " -> "
               << throughputLoss(hopperRows, Precision::BF16, hopper) << "; gemm_efficiency_max "
               << reports::significant(hopper.gemmEfficiencyMax, 4) << " (kHopperGemmEfficiencyMax)\n";
        io.out << "hopper fp8 (calibration rows) loss " << fp8Before << " -> "
               << throughputLoss(hopperRows, Precision::FP8, hopper) << '\n';
        // Last the CDNA 3 family's GEMM efficiency on its FP8 calibration rows (its only BF16 row is held
        // out, the check that one efficiency serves both), with the FP8 cast just fitted on Hopper.
        const auto cdna3Rows = loadPublishedThroughput(*data, CalibrationFamily::Cdna3);
        PerfCalibration cdna3 = familyCalibration(CalibrationFamily::Cdna3, result.fitted);
        const double cdna3Before = throughputLoss(cdna3Rows, Precision::FP8, cdna3);
        cdna3 = fitGemmEfficiency(cdna3Rows, cdna3, Precision::FP8);
        io.out << "cdna3 fp8 (calibration rows) loss " << cdna3Before << " -> "
               << throughputLoss(cdna3Rows, Precision::FP8, cdna3) << "; gemm_efficiency_max "
               << reports::significant(cdna3.gemmEfficiencyMax, 4) << " (kCdna3GemmEfficiencyMax)\n";
        io.out << "loss " << result.initialLoss << " -> " << result.loss << " after " << result.evaluations
               << " evaluations\n{\n";
        const auto& fields = perfCalibrationFields();
        for (size_t i = 0; i < fields.size(); ++i)
            io.out << "  \"" << fields[i].key
                   << "\": " << reports::significant(result.fitted.*fields[i].member, 4)
                   << (i + 1 < fields.size() ? "," : "") << '\n';
        io.out << "}\n";
        return 0;
    };
    return command;
}

} // namespace carbon3d::cli
