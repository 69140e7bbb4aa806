import Scenarios
import Sim

/// `keysim trace compare`: two traces' typing figures side by side.
struct TraceCompareCommand: ParsableCommand {
    var a = ""
    var b = ""

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "trace compare",
            abstract: "Put two traces' typing figures side by side, with the KS distance of their intervals.",
            usage: "trace compare <a> <b>",
            arguments: [.one("<a>", \.a, help: "A trace (.jsonl or .jsonl.zst).", .file), .one("<b>", \.b, help: "Another trace.", .file)],
            discussion: """
            Prints, for each trace, the typing speed, the gaps between edits over 400 ms, 1 s
            and 2 s per 100 words, the characters and words left wrong, and the backspace rate
            (as 'trace stats' measures them), and the two-sample Kolmogorov-Smirnov distance
            between the traces' within-word intervals and between all their intervals within
            messages (0: the same distribution, 1: no overlap).
            """
        )
    }

    func run() throws -> Int32 { try TraceCommand.compare([a, b]) }
}

extension TraceCommand {
    static func compare(_ paths: [String]) throws -> Int32 {
        var fitters: [TypistFitter] = []
        for path in paths {
            var reader = try TraceFileReader(path: path)
            var fitter = TypistFitter()
            fitter.begin(reader.header)
            while let event = try reader.nextEvent() { fitter.add(event) }
            fitter.finish()
            fitters.append(fitter)
        }
        let contexts = TypistProfile.Context.allCases.filter { $0 != .messageStart }
        print(compareTable((fileName(paths[0]), .init(fitters[0].statistics)), (fileName(paths[1]), .init(fitters[1].statistics)),
                           withinWord: KolmogorovSmirnov.distance(fitters[0].samples(.withinWord), fitters[1].samples(.withinWord)),
                           all: KolmogorovSmirnov.distance(contexts.flatMap { fitters[0].samples($0) },
                                                           contexts.flatMap { fitters[1].samples($0) })))
        return 0
    }
}
