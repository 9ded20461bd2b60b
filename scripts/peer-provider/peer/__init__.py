"""The peer provider: django-oauth-toolkit configured as a second, independent OpenID Connect
provider for RiderKit's interoperability tests. See scripts/peer-provider.sh."""
