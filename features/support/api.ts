// The JSON API through this.request (Playwright's APIRequestContext): no
// browser page is opened for these scenarios.
import { When, Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
import type { DemoWorld } from './world'

interface Todo {
  id: number
  title: string
  done: boolean
}

When('I GET {string}', async function (this: DemoWorld, path: string) {
  this.response = await this.request.get(path)
})

When('I DELETE {string}', async function (this: DemoWorld, path: string) {
  this.response = await this.request.delete(path)
})

When('I POST to {string}:', async function (this: DemoWorld, path: string, body: string) {
  this.response = await this.request.post(path, {
    headers: { 'Content-Type': 'application/json' },
    data: body,
  })
})

When('I create the todo {string} through the API', async function (this: DemoWorld, title: string) {
  this.response = await this.request.post('/api/todos', { data: { title } })
  const created: Todo = await this.response.json()
  expect(created).toMatchObject({ title, done: false })
  this.createdTodoId = created.id
})

When('I delete the created todo through the API', async function (this: DemoWorld) {
  this.response = await this.request.delete(`/api/todos/${this.createdTodoId}`)
})

Then('the response status is {int}', function (this: DemoWorld, status: number) {
  expect(this.lastResponse().status()).toBe(status)
})

Then('the response JSON is:', async function (this: DemoWorld, json: string) {
  expect(await this.lastResponse().json()).toEqual(JSON.parse(json))
})

async function listTodos(world: DemoWorld): Promise<Todo[]> {
  const response = await world.request.get('/api/todos')
  await expect(response).toBeOK()
  return response.json()
}

Then('the API lists the created todo', async function (this: DemoWorld) {
  const todos = await listTodos(this)
  expect(todos.map((t) => t.id)).toContain(this.createdTodoId)
})

Then('the API no longer lists the created todo', async function (this: DemoWorld) {
  const todos = await listTodos(this)
  expect(todos.map((t) => t.id)).not.toContain(this.createdTodoId)
})
