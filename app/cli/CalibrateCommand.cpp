// SPDX-License-Identifier: MIT
// carbon3d-cli calibrate: fits PerfCalibration to the measured runs and prints the values to compile in.
#include "cli/Commands.h"
#include "domain/PerfCalibration.h"
#include "perf/Calibration.h"
#include "perf/PublishedThroughput.h"
#include "perf/ValidationSet.h"
#include "reports/NumberFormat.h"

#include <ostream>

namespace carbon3d::cli {

Command makeCalibrateCommand() {
    Command command;
    command.name = "calibrate";
    command.summary = "fit the performance model's PerfCalibration to tests/data/validation";
    command.usage = "calibrate --data DIR [--max-evaluations N]";
    command.details =
        "Starts from the compiled-in defaults, fits every A100 parameter on the A100 sets, then "
        "fp8_cast_bytes_per_element on the FP8 calibration rows of DIR/hopper (never the held-out rows), and "
        "prints the fitted values as JSON (a cluster's \"calibration\" object).";
    command.flags = {{"data", true, false, "DIR", "tests/data/validation"},
                     {"max-evaluations", true, false, "N", "loss evaluations (default 6000)"}};
    command.run = [](const CliArguments& args, CommandIo& io) {
        const auto data = args.value("data");
        if (!data)
            throw UsageError("--data is required");
        const auto rows = loadValidationRows(*data);
        const int evaluations = args.intValue("max-evaluations", 1, 10000000).value_or(6000);
        CalibrationResult result = calibrate(rows, PerfCalibration{}, evaluations);
        // Then the FP8 term on the Hopper calibration rows, with the A100 fit for everything else.
        const auto hopper = loadPublishedThroughput(*data);
        const double fp8Before = throughputLoss(hopper, Precision::FP8, result.fitted);
        result.fitted = fitFp8Cast(hopper, result.fitted);
        io.out << "fp8 (Hopper calibration rows) loss " << fp8Before << " -> "
               << throughputLoss(hopper, Precision::FP8, result.fitted) << '\n';
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
