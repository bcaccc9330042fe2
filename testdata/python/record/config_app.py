"""Reads settings: a bad value is swallowed and re-raised as another error."""


class ConfigError(Exception):
    pass


def parse_port(text):
    return int(text)


def read_setting(settings, key):
    try:
        return parse_port(settings[key])
    except ValueError:
        return None


def load(settings):
    port = read_setting(settings, "port")
    if port is None:
        raise ConfigError("no usable port in settings")
    return port


if __name__ == "__main__":
    print("port", load({"port": "80"}))
    print("port", load({"port": "eighty"}))
