"""Parts of a page rendered by a synchronous twin of Datasette's Jinja environment.

Datasette renders every template in Jinja's async mode, where every loop of a template iterates
asynchronously and every call in it is checked for an awaitable: for a table's rows or a card's
facts that costs about as much again as the rendering itself. A part of a page that calls nothing
async (no `menu_links()`, no `table_actions()`) is rendered instead by a plain environment over the
same templates, filters, tests and globals, with the variables of the page it stands in, and put
into that page as markup: the same text, made without the awaiting.
"""

from __future__ import annotations

import weakref
from typing import Any

from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

# Datasette's environment -> its synchronous twin.
_TWINS: "weakref.WeakKeyDictionary[Environment, Environment]" = weakref.WeakKeyDictionary()


def twin(env: Environment) -> Environment:
    """A synchronous environment reading the same templates as `env`, with its filters, tests and globals (shared, not copied)."""
    found = _TWINS.get(env)
    if found is None:
        found = Environment(loader=env.loader, autoescape=env.autoescape, auto_reload=False)
        found.filters = env.filters
        found.tests = env.tests
        found.globals = env.globals
        found.policies = env.policies
        _TWINS[env] = found
    return found


def render_now(context: Context, templates: str | list[str]) -> Markup:
    """The first of `templates` that exists, rendered synchronously with every variable of `context`."""
    env = twin(context.environment)
    template = env.get_template(templates) if isinstance(templates, str) else env.select_template(list(templates))
    return Markup(template.render(context.get_all()))


@pass_context
def include_now(context: Context, templates: Any) -> Markup:
    """`{% include templates %}` for a part that calls nothing async, rendered without the async machinery."""
    return render_now(context, templates)
