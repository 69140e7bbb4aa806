/// Everything the dictation model needs to know, with the seed dictation keyboard's
/// ("Yabber") numbers as defaults. Times are distributions of milliseconds, as everywhere
/// in keysim. Every parameter is described in `docs/dictation.md` under the same name.
public struct DictationConfig: Sendable, Equatable {
    /// Where the speech model runs.
    public enum SpeechEngine: String, Sendable, Equatable, CaseIterable {
        /// The Neural Engine, through Core ML.
        case neuralEngine
        /// The CPU: the fallback.
        case cpu
    }

    /// What the app does with the microphone between dictations.
    public enum MicPolicy: String, Sendable, Equatable, CaseIterable {
        /// The seed's policy: the mic stays on (the orange dot shows) until the idle timeout,
        /// keeping a pre-roll ring buffer, so every tap in the session is warm.
        case keepOn
        /// The mic pauses when a dictation's recording ends. iOS suspends the app
        /// `suspendDelay` later, and a suspended app cannot restart the mic: the next tap
        /// after that is a cold start.
        case pauseBetweenDictations
    }

    /// A pair of values, one per speech engine.
    public struct PerEngine<Value: Sendable & Equatable>: Sendable, Equatable {
        /// The value for the Neural Engine.
        public var neuralEngine: Value
        /// The value for the CPU.
        public var cpu: Value
        /// Creates a pair.
        public init(neuralEngine: Value, cpu: Value) {
            self.neuralEngine = neuralEngine
            self.cpu = cpu
        }
        /// The value for `engine`.
        public subscript(engine: SpeechEngine) -> Value {
            get { engine == .neuralEngine ? neuralEngine : cpu }
            set { if engine == .neuralEngine { neuralEngine = newValue } else { cpu = newValue } }
        }
    }

    /// The Darwin notification that rings the other side's doorbell (keyboard → app and
    /// back). Not in the seed: assumed lognormal, median 2 ms, p99 8 ms.
    public var doorbell: Distribution = .lognormal(median: 2, p99: 8)
    /// Writing and reading the message file in the shared App Group folder, before the
    /// doorbell rings. Not in the seed: assumed lognormal, median 1 ms, p99 4 ms.
    public var sharedFile: Distribution = .lognormal(median: 1, p99: 4)
    /// Opening the container app from the keyboard until it runs, before the model loads.
    /// The seed gives launch and model load as one number (see `modelLoad`), so 0.
    public var appLaunch: Distribution = .constant(0)
    /// Loading the speech model at the start of a session (seed: 0.13 s on the Neural
    /// Engine, 3.8 s on the CPU).
    public var modelLoad = PerEngine<Distribution>(neuralEngine: .constant(130), cpu: .constant(3800))
    /// The user swiping back from the app to where they were (the seed's app shows an
    /// animation of the gesture; there is no API to go back). Not in the seed: assumed
    /// lognormal, median 1500 ms, p99 4000 ms.
    public var swipeBack: Distribution = .lognormal(median: 1500, p99: 4000)
    /// The keyboard's `insertText` of the returned text. Not in the seed: assumed
    /// lognormal, median 0.5 ms, p99 2 ms.
    public var insert: Distribution = .lognormal(median: 0.5, p99: 2)
    /// The engine the app prefers (seed: the Neural Engine).
    public var engine: SpeechEngine = .neuralEngine
    /// Whether the Neural Engine works while the app is in the background (seed: yes on
    /// iOS 26; reportedly broken in the first iOS 27 beta). When `false` and `engine` is the
    /// Neural Engine, sessions load and use the CPU model instead.
    public var neuralEngineInBackground = true
    /// Audio kept in the ring buffer while the mic is on between dictations (seed: 0.4 s).
    public var preRoll: SimDuration = .milliseconds(400)
    /// A session ends after this long without a dictation (seed: 5 minutes, adjustable
    /// from 1 to 30 minutes).
    public var idleTimeout: SimDuration = .seconds(5 * 60)
    /// What happens to the mic between dictations (seed: it stays on).
    public var micPolicy: MicPolicy = .keepOn
    /// Under `.pauseBetweenDictations`: from the mic pausing (or the user returning from a
    /// cold start, whichever is later) to iOS suspending the app. The seed says "within
    /// seconds": assumed uniform 2–5 s.
    public var suspendDelay: Distribution = .uniform(min: 2000, max: 5000)
    /// The longest recording; longer clips are truncated and the speech after the cap is
    /// lost. `nil` (the seed) means no cap; SpeakUp, a competing app, stops at 60 s.
    public var recordingCap: SimDuration? = nil
    /// Transcription latency as a function of clip length, per engine (seed measurements
    /// on an iPhone 17 Pro, backgrounded).
    public var transcription = PerEngine<TranscriptionCurve>(neuralEngine: .seedNeuralEngine, cpu: .seedCPU)
    /// Peak memory of the app while the model is loaded, in megabytes (seed: 70 MB on the
    /// Neural Engine, 88 MB on the CPU).
    public var peakMemoryMegabytes = PerEngine<Double>(neuralEngine: 70, cpu: 88)
    /// The budget from the stop tap to the text inserted (default 100 ms; the seed reports
    /// 60–80 ms for short dictations, which feels instant). `nil`: no budget.
    public var stopToTextBudget: SimDuration? = .milliseconds(100)

    /// The seed's app.
    public init() {}

    /// The smallest and largest idle timeout the seed's app allows.
    public static let idleTimeoutRange: ClosedRange<Int64> = 60_000_000_000...1_800_000_000_000

    /// The engine a session uses: the preferred one, or the CPU when the Neural Engine is
    /// preferred but does not work in the background.
    public var sessionEngine: SpeechEngine {
        engine == .neuralEngine && !neuralEngineInBackground ? .cpu : engine
    }

    /// Every problem with the configuration, as "field: message" (empty when valid).
    public func problems() -> [String] {
        var out: [String] = []
        let distributions: [(String, Distribution)] = [
            ("doorbell", doorbell), ("sharedFile", sharedFile), ("appLaunch", appLaunch),
            ("modelLoad.neuralEngine", modelLoad.neuralEngine), ("modelLoad.cpu", modelLoad.cpu),
            ("swipeBack", swipeBack), ("insert", insert), ("suspendDelay", suspendDelay),
        ]
        for (name, distribution) in distributions {
            out += distribution.validate().map { "\(name).\($0.description)" }
        }
        if preRoll.nanoseconds < 0 { out.append("preRollMs: must not be negative") }
        if !Self.idleTimeoutRange.contains(idleTimeout.nanoseconds) {
            out.append("idleTimeoutMinutes: must be between 1 and 30")
        }
        if let cap = recordingCap, cap.nanoseconds <= 0 { out.append("recordingCapMs: must be greater than 0") }
        for engine in SpeechEngine.allCases {
            if let problem = transcription[engine].problem { out.append("transcription.\(engine.rawValue): \(problem)") }
            if !(peakMemoryMegabytes[engine] >= 0) { out.append("peakMemoryMB.\(engine.rawValue): must not be negative") }
        }
        return out
    }
}
