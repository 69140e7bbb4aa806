import Foundation
import Report
import Scenarios
import Sim

/// `keysim calibrate`: measured durations in, fitted cost distributions out, as a scenario
/// overlay with its provenance, and optionally a page of CDFs and Q-Q plots.
struct CalibrateCommand: ParsableCommand {
    var inputs: [String] = []
    var out: String?
    var pairs: [String] = []
    var mapFile: String?
    var kind = CalibrationKind.auto
    var format: CostFormat?
    var html: String?
    var ksFloor: Double?

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "calibrate",
            abstract: "Fit cost distributions to durations measured on the device; write a scenario overlay.",
            usage: "calibrate <input>... --out FILE [--map NAME=kind]... [--map-file FILE] [--kind KIND] [--html FILE]",
            arguments: [.many("<input>...", \.inputs,
                              help: "Instruments XML (.xml), unified-log NDJSON (.ndjson), MetricKit JSON (.json), CSV (.csv), keysim traces (.jsonl).",
                              missing: "<input>...: the measured durations to fit")],
            options: [
                .option("out", \.out, value: "FILE", help: "The overlay to write (JSON5, replaced atomically).", .file),
                .repeating("map", \.pairs, value: "NAME=kind", help: "Measurements named NAME calibrate kind (a work kind, network.roundTrip, network.bad.roundTrip, cloud.service).", .string),
                .option("map-file", \.mapFile, value: "FILE", help: "More NAME=kind pairs, one per line (# starts a comment).", .file),
                .option("kind", \.kind, value: "KIND", help: "auto (default), or force one of: \(FitFamily.allCases.map(\.rawValue).joined(separator: ", ")).", .calibrationKind),
                .option("format", \.format, value: "FORMAT", help: "Read every input as \(CostFormat.allCases.map(\.rawValue).joined(separator: ", ")) (default: by file name and content).", .cases),
                .option("html", \.html, value: "FILE", help: "Also write a page with the measured and fitted CDFs and Q-Q plots.", .file),
                .option("ks-floor", \.ksFloor, value: "D", help: "Accept a fit whose KS statistic is at most this share, whatever the count (default 0.03).", .share),
            ],
            discussion: """
            A measured name that is a target's own name (lookup, cloud.service) needs no mapping;
            every other name needs --map or --map-file, and names left unmapped are listed. Each
            target is fitted with lognormal, gamma and Weibull, and their shifted variants when a
            minimum is plain in the data (the least duration is at least 10% of the median);
            MetricKit histograms are fitted as interval-censored data. The written distribution is
            the lowest AIC among the fits whose Kolmogorov-Smirnov statistic D is at most
            max(1.628/sqrt(n), --ks-floor); when none is, the quantile table is written and a
            warning says so. Include the overlay from a scenario with include: ["costs.json5"]
            (docs/calibration.md). Any malformed input is an error with its file and line, exit
            code 2, and nothing is written.
            """
        )
    }

    mutating func validate() throws {
        guard out != nil else { throw Self.usage("missing --out <FILE>") }
    }

    func run() throws -> Int32 {
        let out = self.out!  // checked by validate()
        var fitter = CostFitter()
        if let ksFloor { fitter.ksFloor = ksFloor }
        var mapping = NameMapping()
        if let mapFile { try mapping.add(file: mapFile) }
        for pair in pairs {
            if let problem = mapping.add(pair) { throw Self.usage("--map: \(problem)") }
        }
        var readings: [CostReading] = []
        for input in inputs { readings.append(try CostInputReader.read(path: input, format: format)) }

        let run = CalibrationRun(readings: readings, mapping: mapping, kind: kind.forcedFamily, fitter: fitter)
        let commandLine = (["keysim"] + CommandLine.arguments.dropFirst().map(Self.shellQuoted)).joined(separator: " ")
        for unmapped in run.unmapped {
            printError("keysim calibrate: warning: unmapped name \"\(unmapped.name)\" (\(unmapped.count) duration(s) in \(unmapped.files.joined(separator: ", "))); map it with --map NAME=kind")
        }
        guard !run.calibrations.isEmpty else {
            let measured = readings.flatMap(\.series).count
            let reasons = run.skipped.map { "\($0.target.name): \($0.reason)" }
            throw InputError(.invalidContent, file: inputs.joined(separator: ", "),
                             message: measured == 0 ? "no durations measured in the input" :
                                (reasons.isEmpty ? "no measured name maps to a kind (see the unmapped names above)" : "nothing to calibrate: " + reasons.joined(separator: "; ")))
        }
        let overlay = CalibrationOverlay.text(run, command: commandLine)
        let page = html.map { _ in CalibrationPage.html(run, command: commandLine) }
        // Both files are written in full before either is put in place: a failure on one
        // (a missing folder, a full disk) leaves neither.
        let overlayWriter = try AtomicFileWriter(path: out)
        try overlayWriter.write(overlay)
        var pageWriter: AtomicFileWriter?
        if let html, let page {
            pageWriter = try AtomicFileWriter(path: html)
            try pageWriter?.write(page)
        }
        try overlayWriter.commit()
        try pageWriter?.commit()

        for reading in readings {
            for remark in reading.remarks { print("\(reading.file): \(remark)") }
        }
        print(Self.table(run), terminator: "")
        for calibration in run.calibrations where calibration.noAcceptableFit && !calibration.forced {
            printError("keysim calibrate: warning: \(calibration.target.name): no parametric fit is acceptable (best D \(CalibrationOverlay.format(calibration.fits.map(\.ksStatistic).min() ?? 1)), limit \(CalibrationOverlay.format(calibration.ksLimit))); the quantile table is written")
        }
        for skipped in run.skipped {
            printError("keysim calibrate: warning: \(skipped.target.name) not calibrated: \(skipped.reason)")
        }
        print("overlay: \(out)" + (html.map { ", page: \($0)" } ?? ""))
        return 0
    }

    /// `text` as a shell word: unchanged when it is plain, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@%+".contains($0) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// One row per target: what was measured and what was chosen.
    static func table(_ run: CalibrationRun) -> String {
        var table = TextTable(headers: ["kind", "n", "measured p50", "p99", "chosen", "fitted p50", "p99", "KS D", "limit", "note"])
        for c in run.calibrations {
            let measured = MeasuredCDF(c.series)
            let note = c.forced ? "forced" : (c.noAcceptableFit ? "no acceptable fit" : "")
            table.add([c.target.name, String(c.series.count), TextTable.fixed(measured.quantile(0.5)), TextTable.fixed(measured.quantile(0.99)),
                       c.chosen.family.rawValue, TextTable.fixed(c.chosen.distribution.quantile(0.5) ?? .nan),
                       TextTable.fixed(c.chosen.distribution.quantile(0.99) ?? .nan), TextTable.fixed(c.chosen.ksStatistic, 3),
                       TextTable.fixed(c.ksLimit, 3), note])
        }
        return table.render()
    }
}
