import Foundation
import Scenarios
import Sim

/// `keysim trace import`: keystroke files of a public typing dataset as traces.
struct TraceImportCommand: ParsableCommand {
    var paths: [String] = []
    var format: Aalto136MImporter.Format?
    var outDir = "."
    var zstd = false

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "trace import",
            abstract: "Convert keystroke files of a public typing dataset into traces.",
            usage: "trace import --format aalto136m|typing37k <file>... [--out-dir DIR] [--zstd]",
            // Counted in validate(): a missing --format is the first thing to say.
            arguments: [.many("<file>...", \.paths, help: "Keystroke files of the dataset, such as 12345_keystrokes.txt.", minimum: 0)],
            options: [
                .option("format", \.format, value: "NAME", help: "The dataset: aalto136m (the 136M Keystrokes dataset, desktop) or typing37k (its mobile counterpart, the header row optional); both tab-separated.",
                        .dataset),
                .option("out-dir", \.outDir, value: "DIR", help: "Folder for the traces (default: the current folder).", .directory),
                .flag("zstd", \.zstd, help: "Write .jsonl.zst instead of .jsonl."),
            ],
            discussion: """
            One trace per file, named after it (12345_keystrokes.txt → 12345_keystrokes.jsonl).
            Each test section becomes keyboard.show, a field event (a field of its own, with
            the section's sentence as its intended text), its keystrokes sorted by press time
            (ARW_LEFT and ARW_RIGHT as cursor moves), and keyboard.hide; sections follow one
            another with their real gaps, and the header's intendedText holds the sentences,
            one per line. Lines that are not UTF-8 are read as ISO-8859-1 and counted. Each section is replayed as it is
            converted; sections whose replay does not give back USER_INPUT are reported as
            warnings and counted. A malformed file is reported with its line and writes
            nothing; the other files are still converted, and the exit code is 2.
            """
        )
    }

    mutating func validate() throws {
        guard format != nil else { throw Self.usage("missing --format <NAME> (aalto136m or typing37k)") }
        guard !paths.isEmpty else { throw Self.usage("missing <file>") }
    }

    func run() throws -> Int32 { try TraceCommand.importFiles(paths, dataset: format!, outDir: outDir, zstd: zstd) }
}

extension TraceCommand {
    static func importFiles(_ paths: [String], dataset: Aalto136MImporter.Format, outDir: String, zstd: Bool) throws -> Int32 {
        var folder = outDir
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError(command: "trace import", message: "--out-dir '\(folder)' is not an existing folder")
        }
        if !folder.hasSuffix("/") { folder += "/" }
        let outputs = paths.map { folder + baseName($0) + (zstd ? ".jsonl.zst" : ".jsonl") }
        for (index, output) in outputs.enumerated() where outputs[..<index].contains(output) {
            throw UsageError(command: "trace import", message: "two inputs would both be written to '\(output)'")
        }

        var failed = 0
        var totalSections = 0
        var totalMismatches = 0
        for (path, output) in zip(paths, outputs) {
            do {
                let conversion = try Aalto136MImporter.convert(path: path, format: dataset)
                let writer = try TraceFileWriter(path: output, header: conversion.header)
                for event in conversion.events { try writer.write(event) }
                try writer.commit()
                let mismatches = conversion.mismatches
                for section in mismatches {
                    printError("\(path):\(section.line):1: warning: section \(section.id) rebuilds \(jsonString(section.rebuilt)), not its USER_INPUT \(jsonString(section.userInput))")
                }
                totalSections += conversion.sections.count
                totalMismatches += mismatches.count
                var summary = "\(output): \(count(conversion.sections.count, "section")), \(count(conversion.sections.reduce(0) { $0 + $1.keystrokeCount }, "keystroke")), \(count(conversion.events.count, "event"))"
                summary += "; \(mismatches.count) of \(conversion.sections.count) do not rebuild USER_INPUT"
                if !conversion.ignoredKeys.isEmpty {
                    summary += "; ignored keys: " + conversion.ignoredKeys.map { "\($0.name) \($0.count)" }.joined(separator: ", ")
                }
                if conversion.latin1LineCount > 0 {
                    summary += "; \(count(conversion.latin1LineCount, "line")) read as ISO-8859-1"
                }
                if conversion.reorderedRowCount > 0 {
                    summary += "; \(count(conversion.reorderedRowCount, "row")) moved later to keep time in order"
                }
                print(summary)
            } catch {
                printError("\(error)")
                failed += 1
            }
        }
        if paths.count > 1 {
            print("imported \(paths.count - failed) of \(count(paths.count, "file")): \(count(totalSections, "section")), \(totalMismatches) do not rebuild USER_INPUT")
        }
        return failed > 0 ? 2 : 0
    }
}
