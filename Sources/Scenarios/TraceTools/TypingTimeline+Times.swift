#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sim

extension TypingTimeline {
    /// The times, in nanoseconds, of the recorded events as a session of `profile` (the
    /// recording typist with other typing medians: `TypistProfile.scaled(by:)`) seeded alike
    /// types them: each typing interval drawn again, in the recorded order, from the recorded
    /// standard normals (continued from `timingAfterNormals` when it needs more of them), and
    /// every other step of the clock as recorded. The same numbers as drawing from fresh
    /// streams (`HumanTypistSession.eventTimes(of:)`, `TypingTimelineTests`), without their
    /// uniforms and normal quantiles.
    mutating func eventTimes(of profile: TypistProfile) -> [Int64] {
        let samplers = HumanTypistSession.typingSamplers(of: profile)
        let thresholdMs = profile.pauses.thresholdMs
        let rho = profile.rhythm?.serialCorrelation ?? 0
        // The normals and the stream that continues them as locals, handed back at the end.
        var normals = self.normals
        self.normals = []
        defer { self.normals = normals }
        var timing = timingAfterNormals
        defer { timingAfterNormals = timing }
        var nextNormal = 0
        var nextInnovation = 0
        var latent: Double?
        let drawn = [Int64](unsafeUninitializedCapacity: draws.count) { drawn, initialized in
            for draw in draws {
                let duration: SimDuration
                switch draw {
                case .typing(let context):
                    duration = HumanTypistSession.typingInterval(samplers[Int(context)], thresholdMs: thresholdMs) {
                        if nextNormal == normals.count { normals.append(Distribution.Lognormal.standardNormal(&timing!)) }
                        nextNormal += 1
                        return normals[nextNormal - 1]
                    }
                case let .rhythm(context, multiplier):
                    duration = HumanTypistSession.rhythmInterval(profile.contexts[Int(context)], multiplier: multiplier,
                                                                 innovation: innovations[nextInnovation], latent: &latent,
                                                                 rho: rho, thresholdMs: thresholdMs)
                    nextInnovation += 1
                }
                drawn.initializeElement(at: initialized, to: duration.nanoseconds)
                initialized += 1
            }
        }
        // The clock after each step, read at each event's step count: integer nanoseconds,
        // added in the recorded order (the counts never decrease).
        return [Int64](unsafeUninitializedCapacity: eventSteps.count) { times, initialized in
            var now: Int64 = 0
            var taken = 0
            steps.withUnsafeBufferPointer { steps in
                drawn.withUnsafeBufferPointer { drawn in
                    for count in eventSteps {
                        while taken < Int(count) {
                            let step = steps[taken]
                            now += step.draw < 0 ? step.nanos : drawn[Int(step.draw)]
                            taken += 1
                        }
                        times.initializeElement(at: initialized, to: now)
                        initialized += 1
                    }
                }
            }
        }
    }
}
