import Sim

extension RunMetric {
    /// Share of the run's touches that the drawn layout gives to another key than the one meant.
    public static let touchTypoRatePlain = RunMetric(
        name: "touch_typo_rate_plain_share", label: "touch typo rate, drawn layout (share)", unit: "share", lowerIsBetter: true,
        description: "Share of touches whose point lies on another key than the one meant, on the drawn layout."
    ) { run in run.observations.touches.isEmpty ? nil : share(run.observations.touches.lazy.map(\.plainTypo)) }

    /// Share of the run's touches that the layout with the predicted key's boundaries moved
    /// gives to another key than the one meant.
    public static let touchTypoRateShifted = RunMetric(
        name: "touch_typo_rate_shifted_share", label: "touch typo rate, shifted boundaries (share)", unit: "share",
        lowerIsBetter: true,
        description: "Share of touches decided as another key than the one meant once the predicted key's boundaries moved."
    ) { run in run.observations.touches.isEmpty ? nil : share(run.observations.touches.lazy.map(\.shiftedTypo)) }

    /// Share of the run's touches whose next-letter prediction finished after touch-down.
    public static let touchPredictionsLateShare = RunMetric(
        name: "touch_predictions_late_share", label: "next-letter predictions late (share)", unit: "share", lowerIsBetter: true,
        description: "Share of touches whose next-letter prediction finished after the touch-down, leaving the drawn layout to decide."
    ) { run in run.observations.touches.isEmpty ? nil : 1.0 - share(run.observations.touches.lazy.map(\.ready)) }
}
