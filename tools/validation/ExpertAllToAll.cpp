// SPDX-License-Identifier: MIT
#include "validation/ExpertAllToAll.h"

#include "domain/InputError.h"
#include "validation/CsvTable.h"

namespace carbon3d {

namespace {

// One of the expected words in a text column, else an InputError naming the line and the column.
bool oneOf(const Csv& csv, size_t row, int col, const char* yes, const char* no) {
    const std::string& value = csv.text(row, col);
    if (value != yes && value != no)
        throw InputError(csv.file, csv.lines[row], col + 1,
                         "expected '" + std::string(yes) + "' or '" + no + "' in column '" +
                             csv.header[static_cast<size_t>(col)] + "', found '" + value + "'");
    return value == yes;
}

} // namespace

ExpertAllToAllFit fitExpertAllToAll(const std::string& dataDir) {
    const Csv csv = readCsv(dataDir + "/expert_alltoall/deepep_normal_kernels.csv");
    const int version = csv.column("version");
    const int gpu = csv.column("gpu");
    const int ep = csv.column("ep");
    const int link = csv.column("link");
    const int nominal = csv.column("nominal_gb_per_s");
    const int dispatch = csv.column("dispatch_gb_per_s");
    const int combine = csv.column("combine_gb_per_s");
    const int use = csv.column("use");
    ExpertAllToAllFit fit;
    double sum[2] = {0.0, 0.0};
    int count[2] = {0, 0};
    for (size_t row = 0; row < csv.rows.size(); ++row) {
        ExpertAllToAllRow r;
        r.version = csv.text(row, version);
        r.gpu = csv.text(row, gpu);
        r.ep = csv.integer(row, ep);
        r.network = oneOf(csv, row, link, "network", "nvlink");
        r.nominalBytesPerS = csv.number(row, nominal) * 1e9;
        if (r.nominalBytesPerS <= 0.0)
            throw InputError(csv.file, csv.lines[row], nominal + 1, "expected a nominal rate above 0 GB/s");
        r.dispatchBytesPerS = csv.number(row, dispatch) * 1e9;
        r.combineBytesPerS = csv.number(row, combine) * 1e9;
        r.calibration = oneOf(csv, row, use, "calibration", "check");
        if (r.calibration) {
            const int kind = r.network ? 1 : 0;
            sum[kind] += r.dispatchEfficiency() + r.combineEfficiency();
            count[kind] += 2;
        }
        fit.rows.push_back(r);
    }
    if (count[0] == 0 || count[1] == 0)
        throw InputError(csv.file, 0, 0, "expected calibration rows for both 'nvlink' and 'network'");
    fit.intraNodeEfficiency = sum[0] / count[0];
    fit.interNodeEfficiency = sum[1] / count[1];
    return fit;
}

} // namespace carbon3d
