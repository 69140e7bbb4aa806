/// How busy one thread was.
public struct ThreadBusy: Sendable, Equatable {
    /// The thread's name.
    public var name: String
    /// Time it spent running tasks.
    public var busy: SimDuration
}

/// What one replication did, beyond its observations.
public struct ReplicationSummary: Sendable, Equatable {
    /// Simulated time of the last event.
    public var endTime: SimTime
    /// Events the engine processed.
    public var eventsProcessed: Int
    /// Edits replayed (keys, backspaces, pastes, picked suggestions).
    public var edits: Int
    /// Requests sent to the cloud.
    public var requests: Int
    /// Words in the final text of every field (the text of each field as it was left).
    public var words: Int
    /// Grapheme clusters in the final text of every field.
    public var characters: Int
    /// Busy time per thread, in configuration order.
    public var threadBusy: [ThreadBusy]
    /// Events worth counting that have no record of their own.
    public var counters: Counters

    /// Counts of events that have no record of their own.
    public struct Counters: Sendable, Equatable {
        /// Local checks that finished after their word was gone.
        public var checksOfVanishedWords = 0
        /// Words flagged again while an earlier chip of theirs was open.
        public var reflaggedWords = 0
        /// `chip.accept` events with no open chip.
        public var acceptancesWithoutChip = 0
        /// Accepted chips that had no fix to apply (no intended text known).
        public var acceptancesWithoutFix = 0
        /// Finished words that were errors, as the local checker met them: the share of them
        /// underlined is the underlines' recall.
        public var errorWordsFinished = 0
    }
    /// The suggestion bar's quality, when a dictionary was configured.
    public var typingQuality: TypingQuality? = nil
}
