@builtin
Feature: Built-in steps: page objects
  Elements named in pages/login.yaml, pages/forms.toml, pages/todo.json,
  pages/frames.yaml and, in TypeScript, features/support/pages.ts. A name
  defined by one page is enough; a name several pages define is written
  "page > name".

  Scenario: Logging in with the page objects of pages/login.yaml
    Given I open "/login"
    When I fill "User" with "demo"
    And I fill "login > Password" with "wrong"
    And I click "Log in"
    Then I expect the text of "Error" to equal "Invalid username or password"
    And I expect the text of "login > Heading" to equal "Log in"
    When I fill "Password" with "secret"
    And I click "Log in"
    Then I expect the page to contain the text "Welcome, demo!"
    And I expect "Error" not to exist

  Scenario: The same name on two pages, and chains with filters
    Given I open "/forms.html"
    Then I expect the text of "forms > Heading" to equal "Order form"
    When I open "/todo.html"
    And I fill "New todo" with "Buy milk"
    And I press "Enter" on "New todo"
    And I fill "New todo" with "Walk the dog"
    And I press "Enter" on "New todo"
    Then I expect the text of "Milk todo" to contain "Buy milk"
    And I expect the text of "Last todo" to equal "Walk the dog"
    And I expect the count of "[data-testid=todo-item]" to equal 2
    And I expect the text of "Counter" to equal "2 items left"
