Feature: Todo list
  A feature with its own steps: steps/todo.ts defines them with
  cucumber-js's API and Playwright's page and expect, and steps/world.ts is
  the World they share.

  Scenario: Adding a todo
    Given I open the todo list
    When I add the todo "Write my first feature"
    Then the list has 1 todo
    And the counter reads "1 item left"
