/// What one input file held: a series per name, sorted by name, and remarks about what
/// was skipped (intervals that never ended, events without a pair).
public struct CostReading: Sendable, Equatable {
    /// The file, as the user named it.
    public var file: String
    /// Its format.
    public var format: CostFormat
    /// One series per name, sorted by name.
    public var series: [MeasuredSeries]
    /// Sentences about durations left out, for the command's output.
    public var remarks: [String] = []

    /// Creates a reading.
    public init(file: String, format: CostFormat, series: [MeasuredSeries], remarks: [String] = []) {
        self.file = file
        self.format = format
        self.series = series
        self.remarks = remarks
    }
}
