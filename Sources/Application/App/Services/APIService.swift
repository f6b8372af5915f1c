import API
import Adapters
import Foundation
import Telemetry
import VerifyCore

/// Opens the API to traffic, last: until it starts, the listener answers 503. Stopping it, first,
/// drains the listener (stop accepting, let in-flight requests finish) while every other part
/// still runs.
final class APIService: ApplicationService {
    let configuration: Configuration
    let store: StoreService
    let secrets: SecretsService
    let listener: HTTPListenerService
    let delivery: DeliveryService
    let signingKeys: SigningKeyService
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger

    init(
        configuration: Configuration, store: StoreService, secrets: SecretsService, listener: HTTPListenerService,
        delivery: DeliveryService, signingKeys: SigningKeyService, clock: any Clock, random: any RandomSource, logger: Logger
    ) {
        self.configuration = configuration
        self.store = store
        self.secrets = secrets
        self.listener = listener
        self.delivery = delivery
        self.signingKeys = signingKeys
        self.clock = clock
        self.random = random
        self.logger = logger
    }

    func start() throws {
        let c = configuration
        let dependencies = try APIWiring.dependencies(
            c, store: store, secrets: secrets, listener: listener, delivery: delivery, signingKeys: signingKeys, clock: clock,
            random: random, logger: logger)
        if signingKeys.replacedActiveKey {
            // A replica that read the store just before this activation serves its cached key set
            // for up to a second; credentials signed with the new key wait until it has reread.
            logger.info("a new signing key replaced the active one; serving once other replicas publish it", [("kid", secrets.signer.keyID)])
            Thread.sleep(forTimeInterval: StoreKeyRing.forcedRefreshInterval + 0.1)
        }
        listener.responder.set(APIResponder(dependencies))
        logger.info("listening", [
            ("address", "\(c.listenHost):\(listener.port)"), ("mode", c.mode.rawValue), ("issuer", listener.issuer),
            ("kid", secrets.signer.keyID), ("database", store.opened.description),
        ])
    }

    func stop() {
        listener.drain()
    }
}
