// SPDX-License-Identifier: MIT
// carbon3d-validate report-study-lesson: regenerates the Learn page's "When does dynamic 3D parallelism pay?"
// lesson from its study's own numbers. tools/reports computes and writes the text; this command finds the
// sample data and writes the file.
#include "cli/ReportOutput.h"
#include "commands/ValidateCommands.h"
#include "reports/StudyLesson.h"
#include "support/DataDirectory.h"

namespace carbon3d::cli {

Command makeStudyLessonCommand() {
    Command command;
    command.name = "report-study-lesson";
    command.summary = "regenerate the Learn lesson written from a study's numbers (when dynamic 3D pays)";
    command.usage = "report-study-lesson [--out FILE]";
    command.details =
        "Runs sample_data/studies/when-dynamic-3d-pays.json (4,704 cells; about half a minute in a Release "
        "build on two cores) "
        "and writes the lesson's scenario file, its description written from the study's numbers, "
        "to FILE (default: standard output). The committed lesson is "
        "sample_data/scenarios/learn-when-dynamic-3d-pays.json.";
    command.flags = {{"out", true, false, "FILE", "write the lesson here"}};
    command.run = [](const CliArguments& args, CommandIo& io) {
        const std::string data = app::sampleDataDirectory().toStdString();
        const StudyDefinition study = reports::loadStudyLesson(data);
        // Paths in the lesson are relative to the scenarios folder, where the Learn page finds it, wherever
        // --out writes (the golden test writes into the build tree and compares).
        const std::string directory = data + "/scenarios";
        const JsonValue lesson = reports::studyLessonScenario(study, reports::computeStudyLesson(study),
                                                              reports::kStudyLessonFile, directory);
        writeReport(lesson.dump(2) + "\n", args.value("out"), io);
        return 0;
    };
    return command;
}

} // namespace carbon3d::cli
