/// An attempt at a shared backend: what was asked, when it arrived, and, once its service
/// began, its prompt tokens to prefill and its bill.
struct SharedBackendJob: Sendable {
    var request: BackendRequest
    var arrival: SimTime
    /// Its place among the submissions (ties of arrival go by it).
    var sequence: Int
    /// Prompt tokens prefilled (those not in the cache), known when service begins.
    var prefillTokens = 0
    /// The bill, known when service begins.
    var bill = BackendBill(inputTokens: 0, cachedTokens: 0, outputTokens: 0, costPicoUSD: 0)

    init(request: BackendRequest, arrival: SimTime, sequence: Int) {
        self.request = request
        self.arrival = arrival
        self.sequence = sequence
    }
}
