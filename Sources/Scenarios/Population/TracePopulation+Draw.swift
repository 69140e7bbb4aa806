#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sim

extension TracePopulation {
    /// What one replication draws from a population.
    public enum Draw: Sendable, Equatable {
        /// A session to synthesise: `synthesis` typing `text`.
        case synthesis(HumanSynthesis, text: Text)
        /// A recorded trace to replay.
        case trace(String)
    }

    /// The session replication `replication` of a run with seed `seed` draws. Cheap: it
    /// decides what to type and who types it, and synthesises nothing.
    ///
    /// The draws, in this order, from the stream `population.<index>.<key>`: the typist (by
    /// weight), the text (uniformly among the typist's), the speed (when it varies) and the
    /// synthesis seed (any 64-bit value); for traces, the trace (uniformly).
    public func draw(seed: UInt64, replication: Int) -> Draw {
        var random = RandomStream(seed: seed, replication: replication, name: "population.\(index).\(key)")
        switch members {
        case .traces(let files):
            return .trace(files[random.nextInt(below: files.count)])
        case .typists(let typists):
            let (index, text, speed) = Self.drawTypist(typists, &random)
            let typist = typists[index]
            let synthesis = HumanSynthesis(typist: typist.name, profile: typist.profile, seed: random.nextUInt64(),
                                           wordsPerMinute: speed, name: HumanSynthesis.traceName(ofText: text.path))
            return .synthesis(synthesis, text: text)
        }
    }

    /// A typist (its index, by weight), one of its texts (uniformly) and its speed (drawn
    /// when it varies), in this order: a session's first draws, for a population and a fleet.
    static func drawTypist(_ typists: [Typist], _ random: inout RandomStream) -> (index: Int, text: Text, speed: Double?) {
        let index = pick(weights: typists.map(\.weight), &random)
        let typist = typists[index]
        let text = typist.texts[random.nextInt(below: typist.texts.count)]
        switch typist.wordsPerMinute {
        case nil: return (index, text, nil)
        case .fixed(let wpm): return (index, text, wpm)
        case .lognormal(let mean, let sd): return (index, text, lognormalSpeed(mean: mean, sd: sd, &random))
        }
    }

    /// An index drawn with probability proportional to its weight (all positive).
    static func pick(weights: [Double], _ random: inout RandomStream) -> Int {
        let total = weights.reduce(0, +)
        let target = random.nextDouble() * total
        var sum = 0.0
        for (index, weight) in weights.enumerated() {
            sum += weight
            if target < sum { return index }
        }
        return weights.count - 1
    }

    /// A speed from the lognormal with this mean and standard deviation, rounded to 0.1 WPM
    /// (so that the session's command line names it exactly) and held within 5…250 WPM.
    static func lognormalSpeed(mean: Double, sd: Double, _ random: inout RandomStream) -> Double {
        let sigma2 = log(1 + (sd * sd) / (mean * mean))
        let mu = log(mean) - sigma2 / 2
        let wpm = exp(mu + sqrt(sigma2) * StandardNormal.sample(&random))
        let range = TypistModel.wordsPerMinuteRange
        return min(range.upperBound, max(range.lowerBound, (wpm * 10).rounded() / 10))
    }
}

extension TracePopulation.Draw {
    /// The session as the report's `trace_path` names it: the command that writes the very
    /// trace that was replayed, or the recorded trace's path.
    public func description(populationLabel: String) -> String {
        switch self {
        case .trace(let path): path
        case .synthesis(let synthesis, let text):
            "\(populationLabel): " + synthesis.command(text: text.path)
        }
    }
}
