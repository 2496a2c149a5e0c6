"""A small FastAPI app whose generated OpenAPI document is the fixture ``fastapi_app.json``.

Run it with FastAPI installed (it is not one of toolreg's requirements) to write the fixture again:
``python tests/openapi/fastapi_app.py > tests/openapi/fastapi_app.json``.
"""

from __future__ import annotations

import enum
import json
import sys
from typing import Annotated

from fastapi import Cookie, FastAPI, Header, Query, Response
from pydantic import BaseModel, Field

app = FastAPI(title="Pet shelter", version="1.0.0")


class Kind(enum.StrEnum):
    cat = "cat"
    dog = "dog"


class Owner(BaseModel):
    name: str = Field(min_length=1)
    email: str | None = None


class PetIn(BaseModel):
    name: str = Field(min_length=1, max_length=40)
    kind: Kind
    age: int = Field(ge=0, le=40)
    owner: Owner | None = None
    tags: list[str] = []


class Pet(PetIn):
    id: int


class Tree(BaseModel):
    label: str
    children: list[Tree] = []


@app.get("/pets", operation_id="listPets", summary="List the pets")
def list_pets(
    kind: Kind | None = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    tag: Annotated[list[str] | None, Query()] = None,
) -> list[Pet]:
    """Every pet in the shelter, the newest first."""
    return []


@app.post("/pets", operation_id="createPet", summary="Add a pet", status_code=201)
def create_pet(pet: PetIn, x_request_id: Annotated[str | None, Header()] = None) -> Pet:
    return Pet(id=1, **pet.model_dump())


@app.get("/pets/{pet_id}", operation_id="getPet", summary="One pet")
def get_pet(pet_id: int, session: Annotated[str | None, Cookie()] = None) -> Pet:
    return Pet(id=pet_id, name="Rex", kind=Kind.dog, age=3)


@app.delete("/pets/{pet_id}", operation_id="deletePet", summary="Remove a pet", status_code=204)
def delete_pet(pet_id: int) -> Response:
    return Response(status_code=204)


@app.put("/trees/{name}", operation_id="putTree", summary="Store a tree of labels")
def put_tree(name: str, tree: Tree) -> Tree:
    return tree


if __name__ == "__main__":
    json.dump(app.openapi(), sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write("\n")
