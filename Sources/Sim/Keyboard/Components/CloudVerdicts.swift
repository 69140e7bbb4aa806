/// The cloud checker's judgement of one word: it flags a true error with probability
/// `cloud.recall` and a correct word with `cloud.falsePositiveRate`, from the stream
/// `<prefix>cloud.verdict/<ordinal>/<word>` — so the same word at the same place gets the same
/// verdict however often, and in whichever request, it is sent.
struct CloudVerdicts {
    private let recall: Double
    private let falsePositiveRate: Double
    /// The name-independent part of every stream key, and the hash of "<prefix>cloud.verdict/".
    private let keyBase: UInt64
    private let prefixHash: UInt64
    #if KEYSIM_INTERNAL_CHECKS
    private let seed: UInt64
    private let replication: Int
    private let streamPrefix: String
    #endif

    init(config: CloudConfig, seed: UInt64, replication: Int, streamPrefix: String) {
        recall = config.recall
        falsePositiveRate = config.falsePositiveRate
        keyBase = RandomStream.streamKeyBase(seed: seed, replication: replication)
        prefixHash = RandomStream.fnv1a64("\(streamPrefix)cloud.verdict/")
        #if KEYSIM_INTERNAL_CHECKS
        self.seed = seed
        self.replication = replication
        self.streamPrefix = streamPrefix
        #endif
    }

    /// Whether the cloud flags `word`, the `ordinal`-th word of the text.
    func flags(ordinal: Int, word: String, isError: Bool) -> Bool {
        // The stream's key computed without building its name.
        var verdicts = RandomStream(key: RandomStream.streamKey(base: keyBase, prefixHash: prefixHash,
                                                                number: ordinal, separator: 0x2F, suffix: word))
        #if KEYSIM_INTERNAL_CHECKS
        assert(verdicts.key == RandomStream.streamKey(seed: seed, replication: replication,
                                                      name: "\(streamPrefix)cloud.verdict/\(ordinal)/\(word)"))
        #endif
        let u = verdicts.nextDouble()
        return isError ? u < recall : u < falsePositiveRate
    }
}
