import Foundation

extension TypistFitter {
    /// One measured interval: its context, length, key pair (within a word) and the record of
    /// the previous edit's interval when the two edits followed one another.
    struct IntervalRecord: Sendable {
        var context: TypistProfile.Context
        var nanos: Int64
        var pair: KeyPair?
        var previous: Int?
    }

    /// Typing intervals under the threshold below which a context gets no hesitation
    /// component (a mixture needs its tail to be seen).
    static let mixtureSamplesMin = 100
    /// Consecutive pairs below which no serial correlation is fitted.
    static let serialPairsMin = 50
    /// Intervals shorter than this are left out of the rhythm: two keys down within a few
    /// milliseconds (rollover, a coarse clock) that no lognormal of typing would draw (under
    /// 1e-5 of one with a median of 80 ms and σ 0.6), and whose logarithms would drag a
    /// mixture component down to cover them.
    static let rhythmIntervalMinNanos: Int64 = 5_000_000

    /// The rhythm the records support, and the contexts' hesitations: the hesitation, the
    /// positions and the kinds of pair are each kept when they lower the Bayesian information
    /// criterion (a log-likelihood gain over half the log of the sample size per parameter),
    /// the pairs' own effects when their heterogeneity test rejects τ² = 0 at 1 %, the serial
    /// correlation when it differs from 0 at 1 %. A context without a kept part keeps
    /// `contexts`' moment fit; `fitted` says which contexts were measured.
    func fitRhythm(_ contexts: inout [TypistProfile.ContextTiming], fitted: [Bool], thresholdMs: Double) -> TypistRhythm? {
        let threshold = Int64((thresholdMs * 1e6).rounded())
        var digraphIndex: [String: Int] = [:]
        var digraphNames: [String] = []
        var rhythm = TypistRhythm()
        var hasMultipliers = false
        for (index, context) in TypistProfile.Context.allCases.enumerated() where fitted[index] && context != .messageStart {
            var observations = IntervalMixtureFit.Observations()
            for record in records where record.context == context && record.nanos <= threshold
                && record.nanos >= Self.rhythmIntervalMinNanos {
                let logMs = log(max(Double(record.nanos) / 1e6, 1e-3))
                guard let pair = record.pair else {
                    observations.append(logMs: logMs)
                    continue
                }
                var digraph = -1
                if let name = pair.digraph {
                    if digraphIndex[name] == nil {
                        digraphIndex[name] = digraphNames.count
                        digraphNames.append(name)
                    }
                    digraph = digraphIndex[name]!
                }
                observations.append(logMs: logMs, position: KeyPair.Position.allCases.firstIndex(of: pair.position)!,
                                    digraphClass: pair.digraphClass.map { KeyPair.DigraphClass.allCases.firstIndex(of: $0)! } ?? -1,
                                    digraph: digraph)
            }
            observations.digraphCount = digraphNames.count
            observations.logThreshold = log(thresholdMs)
            guard observations.count >= Self.mixtureSamplesMin else { continue }
            let hasPairs = context == .withinWord
            guard let fit = Self.selectParts(observations, pairs: hasPairs) else { continue }
            contexts[index].interval = .init(medianMs: exp(fit.model.mu), sigma: fit.model.sigma)
            contexts[index].hesitation = fit.parts.hesitation
                ? .init(share: fit.model.share, medianMs: exp(fit.model.hesitationMu), sigma: fit.model.hesitationSigma) : nil
            if hasPairs && (fit.parts.positions || fit.parts.classes || fit.parts.digraphs) {
                hasMultipliers = true
                if fit.parts.positions { rhythm.positionMultipliers = fit.model.positionEffects.map { exp($0) } }
                if fit.parts.classes { rhythm.classMultipliers = fit.model.classEffects.map { exp($0) } }
                if fit.parts.digraphs {
                    for (d, effect) in fit.model.digraphEffects.enumerated() where effect != 0 {
                        rhythm.digraphMultipliers[digraphNames[d]] = exp(effect)
                    }
                }
            }
        }
        let correlation = serialCorrelation(contexts, fitted: fitted, thresholdMs: thresholdMs,
                                            rhythm: hasMultipliers ? rhythm : nil)
        if let correlation {
            rhythm.serialCorrelation = correlation
        }
        return hasMultipliers || correlation != nil ? rhythm : nil
    }

    /// The parts of the model the observations support, and the fit with them; `nil` when
    /// none is (the context keeps its single lognormal).
    static func selectParts(_ observations: IntervalMixtureFit.Observations,
                            pairs: Bool) -> (parts: IntervalMixtureFit.Parts, model: IntervalMixtureFit)? {
        let penalty = 0.5 * log(Double(observations.count))
        func bic(_ fit: IntervalMixtureFit) -> Double { -fit.logLikelihood + penalty * fit.parameterCount }
        var candidates: [WritableKeyPath<IntervalMixtureFit.Parts, Bool>] = [\.hesitation]
        var full = IntervalMixtureFit.Parts(hesitation: true)
        if pairs {
            full = .all
            candidates += [\.positions, \.classes, \.digraphs]
        }
        var fullModel = IntervalMixtureFit(observations, parts: full)
        if !fullModel.hasHesitation {
            full.hesitation = false
            fullModel = IntervalMixtureFit(observations, parts: full)
        }
        // A part stays when leaving it out (the others in) raises the criterion.
        var kept = IntervalMixtureFit.Parts()
        var fits: [(parts: IntervalMixtureFit.Parts, model: IntervalMixtureFit)] = [(full, fullModel)]
        for part in candidates where full[keyPath: part] {
            if part == \.digraphs {
                // The pairs' own effects are random effects: kept when their heterogeneity
                // test says they differ (BIC would charge every pair seen for a parameter).
                if fullModel.digraphsDiffer { kept.digraphs = true }
                continue
            }
            var without = full
            without[keyPath: part] = false
            let model = IntervalMixtureFit(observations, parts: without, start: fullModel)
            fits.append((without, model))
            // A margin against rounding: a part that does nothing (no pair with an effect of
            // its own) leaves the criterion where it was.
            if bic(model) > bic(fullModel) + 1e-6 * Double(observations.count) { kept[keyPath: part] = true }
        }
        guard kept != IntervalMixtureFit.Parts() else { return nil }
        var model = fits.first { $0.parts == kept }?.model ?? IntervalMixtureFit(observations, parts: kept, start: fullModel)
        if kept.hesitation && !model.hasHesitation {
            kept.hesitation = false
            guard kept != IntervalMixtureFit.Parts() else { return nil }
            model = IntervalMixtureFit(observations, parts: kept, start: model)
        }
        return (kept, model)
    }

    /// The correlation of consecutive typing intervals' normal scores under the fitted
    /// marginals; `nil` when too few pairs or not different from 0 at the 1 % level.
    func serialCorrelation(_ contexts: [TypistProfile.ContextTiming], fitted: [Bool], thresholdMs: Double,
                           rhythm: TypistRhythm?) -> Double? {
        let threshold = Int64((thresholdMs * 1e6).rounded())
        var scores = [Double?](repeating: nil, count: records.count)
        for (index, record) in records.enumerated() {
            let c = TypistProfile.Context.allCases.firstIndex(of: record.context)!
            guard fitted[c], record.context != .messageStart, record.nanos <= threshold,
                  record.nanos >= Self.rhythmIntervalMinNanos else { continue }
            let multiplier = record.pair.flatMap { pair in rhythm.map { $0.multiplier(of: pair) } } ?? 1
            let mixture = TypingMixture(contexts[c], multiplier: multiplier, thresholdMs: thresholdMs)
            let p = min(max(mixture.truncatedCDF(ms: Double(record.nanos) / 1e6), 1e-9), 1 - 1e-9)
            scores[index] = StandardNormal.quantile(p)
        }
        var cross = 0.0, before = 0.0, after = 0.0, pairs = 0
        for (index, record) in records.enumerated() {
            guard let z = scores[index], let previous = record.previous, let w = scores[previous] else { continue }
            cross += w * z
            before += w * w
            after += z * z
            pairs += 1
        }
        guard pairs >= Self.serialPairsMin, before > 0, after > 0 else { return nil }
        let rho = cross / (before * after).squareRoot()
        // Under no correlation the estimate is about normal with σ 1/√pairs.
        guard abs(rho) > 2.576 / Double(pairs).squareRoot() else { return nil }
        return min(max(rho, TypistRhythm.serialCorrelationRange.lowerBound), TypistRhythm.serialCorrelationRange.upperBound)
    }
}
