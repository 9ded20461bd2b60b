// Embedding programs `import RiderKit` and nothing else: the models, errors, ports, use cases
// and the stock adapters come with it.
@_exported import RiderApplication
@_exported import RiderDomain
@_exported import RiderInfrastructure
