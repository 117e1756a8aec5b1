Feature: Todo list
  Go steps and the project's TypeScript steps (steps/todo.ts) act on the
  same page.

  Scenario: Adding todos
    Given I open "/todo.html"
    When I add the todos:
      | todo         |
      | Buy milk     |
      | Walk the dog |
    Then the list shows 2 todos
    And the counter reads "2 items left"
