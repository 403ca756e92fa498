from hypothesis import settings

from properties.profiles import register

register()
# `--hypothesis-profile=NAME` (Hypothesis' pytest plugin) overrides this default.
settings.load_profile("dev")
